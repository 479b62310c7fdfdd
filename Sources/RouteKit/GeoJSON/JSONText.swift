/// Pieces of JSON text written straight into a ``ByteBuffer``: the one JSON string escaper, of GeoJSON and
/// of the command line's JSON outputs.
package enum JSONText {
    /// Appends `text` as a JSON string, quotes included; control characters, quotes and backslashes are
    /// escaped, everything else is written as UTF-8.
    package static func appendString(_ text: String, to buffer: inout ByteBuffer) {
        var copy = text
        copy.withUTF8 { appendString(utf8: $0, to: &buffer) }
    }

    /// Appends the UTF-8 text `bytes` as a JSON string, as ``appendString(_:to:)`` does.
    package static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        buffer.append(0x22)
        var runStart = 0
        for (i, c) in bytes.enumerated() where c < 0x20 || c == 0x22 || c == 0x5C {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            runStart = i + 1
            switch c {
            case 0x22: buffer.append("\\\"")
            case 0x5C: buffer.append("\\\\")
            case 0x0A: buffer.append("\\n")
            case 0x0D: buffer.append("\\r")
            case 0x09: buffer.append("\\t")
            case 0x08: buffer.append("\\b")
            case 0x0C: buffer.append("\\f")
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                buffer.append("\\u00")
                buffer.append(hex[Int(c >> 4)])
                buffer.append(hex[Int(c & 0xF)])
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        buffer.append(0x22)
    }

    /// Appends `"key":` .
    package static func appendKey(_ key: StaticString, to buffer: inout ByteBuffer) {
        buffer.append(0x22)
        buffer.append(key)
        buffer.append("\":")
    }
}
