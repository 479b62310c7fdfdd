import Glibc

/// A C library opened when it is first needed (`dlopen`), not linked: a library that only some commands use
/// (GDAL, libpq) then costs the others nothing at start-up, where the dynamic loader would otherwise map it
/// and the libraries it needs and resolve all their symbols. Never closed.
struct SharedLibrary {
    /// Why a library or one of its functions cannot be used.
    struct Unavailable: Error {
        var reason: String
    }

    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by.
    let name: String

    /// Opens the first of `names` (sonames, looked up as the dynamic loader looks up a linked library) that
    /// the system has, resolving all its symbols now.
    ///
    /// - Throws: ``Unavailable`` with the loader's reason when none opens.
    init(_ what: String, names: [String]) throws(Unavailable) {
        var reasons: [String] = []
        for name in names {
            // NULL on error, dlerror() telling why.
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                self.name = name
                return
            }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
        }
        throw Unavailable(reason: "\(what) cannot be loaded: " + reasons.joined(separator: "; "))
    }

    /// The function `symbol` of the library, as a C function of type `T`.
    ///
    /// - Throws: ``Unavailable`` when the library has no such symbol.
    func function<T>(_ symbol: String) throws(Unavailable) -> T {
        guard let address = dlsym(handle, symbol) else {  // NULL when there is no such symbol
            throw Unavailable(reason: "\(name) has no \(symbol)")
        }
        return unsafeBitCast(address, to: T.self)
    }
}

extension Result where Failure == SharedLibrary.Unavailable {
    /// The library, or the error `error` makes of the reason it cannot be loaded.
    func get(orThrow error: (String) -> Error) throws -> Success {
        switch self {
        case .success(let library): return library
        case .failure(let failure): throw error(failure.reason)
        }
    }
}
