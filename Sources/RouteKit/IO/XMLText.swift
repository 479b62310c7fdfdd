/// XML text escaping for element content and attribute values: the one escaper of GPX, SVG and the HTML
/// page of `routekit stages`.
package enum XMLText {
    /// Appends `text` with `&`, `<`, `>`, `"` escaped, and control characters that XML 1.0 forbids
    /// dropped (tab, line feed and carriage return are kept).
    package static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        for byte in text.utf8 {
            switch byte {
            case 0x26: buffer.append("&amp;")
            case 0x3C: buffer.append("&lt;")
            case 0x3E: buffer.append("&gt;")
            case 0x22: buffer.append("&quot;")
            case 0x09, 0x0A, 0x0D: buffer.append(byte)
            case 0..<0x20: break
            default: buffer.append(byte)
            }
        }
    }

    /// `text` escaped as ``appendEscaped(_:to:)`` does it.
    package static func escaped(_ text: String) -> String {
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        appendEscaped(text, to: &buffer)
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
