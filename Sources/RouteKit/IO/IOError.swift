import Glibc

/// Failures to open, read or write a file, with the path and the system's reason.
public enum IOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input could not be opened (it does not exist, is a folder, or may not be read).
    case cannotOpen(path: String, reason: String)
    /// Reading an input failed part-way.
    case readFailed(path: String, reason: String)
    /// An output could not be created (its folder does not exist or may not be written).
    case cannotCreate(path: String, reason: String)
    /// Writing an output failed part-way (for example, the disk is full).
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open: \(reason)"
        case let .readFailed(path, reason): return "\(path): cannot read: \(reason)"
        case let .cannotCreate(path, reason): return "\(path): cannot create: \(reason)"
        case let .writeFailed(path, reason): return "\(path): cannot write: \(reason)"
        }
    }

    /// A problem in the file at `path`, as messages name it: `PATH:LINE:COLUMN: …` when the problem starts with
    /// its line, else `PATH: …`.
    static func located(_ problem: String, in path: String) -> String {
        problem.first?.isNumber == true ? "\(path):\(problem)" : "\(path): \(problem)"
    }

    /// The text of the current `errno`, as `strerror` gives it.
    static func systemReason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
