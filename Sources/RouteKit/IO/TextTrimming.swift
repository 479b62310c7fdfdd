extension String {
    /// The string without spaces, tabs and line breaks at either end.
    package func trimmingSpaces() -> String {
        let bytes = utf8
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        guard let first = bytes.first, let last = bytes.last else { return self }
        if !isSpace(first) && !isSpace(last) { return self }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
