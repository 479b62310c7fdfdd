import Glibc

/// Temporary output files to remove if the process is interrupted (SIGINT, SIGTERM, SIGHUP), so that an
/// interrupted run never leaves a half-written file behind.
///
/// The paths live in fixed C buffers so that the signal handler touches nothing but `unlink` and `_exit`,
/// which are async-signal-safe. Up to 64 outputs can be open at once; beyond that a file is still removed
/// on normal failure, just not on a signal.
enum TemporaryFiles {
    private static let slots = 64
    private static let pathLength = 4096
    nonisolated(unsafe) private static let storage: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: slots * pathLength)
        p.initialize(repeating: 0, count: slots * pathLength)
        return p
    }()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private static let lockReady: Bool = {
        pthread_mutex_init(lock, nil)  // cannot fail with default attributes
        return true
    }()

    /// Remembers `path` for removal on a signal; returns its slot (nil when all are taken).
    static func register(_ path: String) -> Int? {
        _ = lockReady
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let bytes = Array(path.utf8)
        guard bytes.count < pathLength else { return nil }
        for slot in 0..<slots where storage[slot * pathLength] == 0 {
            // The first byte last: the handler never sees a half-written path.
            for (i, b) in bytes.enumerated().dropFirst() { storage[slot * pathLength + i] = CChar(bitPattern: b) }
            storage[slot * pathLength + bytes.count] = 0
            storage[slot * pathLength] = CChar(bitPattern: bytes[0])
            installHandlers()
            return slot
        }
        return nil
    }

    /// Installs the handlers now and lets the signals through on the calling thread. A program calls this
    /// first thing on its main thread, so that every thread it starts later inherits the same signal mask.
    static func prepare() {
        _ = lockReady
        pthread_mutex_lock(lock)
        installHandlers()
        pthread_mutex_unlock(lock)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)  // fails only for an invalid "how"
    }

    /// Forgets a slot (the file was renamed into place or removed).
    static func release(_ slot: Int) {
        pthread_mutex_lock(lock)
        storage[slot * pathLength] = 0
        pthread_mutex_unlock(lock)
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        // The slots exist before any handler can run: a lazy global initialised inside a signal handler
        // would call malloc there.
        _ = storage
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only async-signal-safe calls here: unlink each registered path, then leave with 128 + signal.
                for slot in 0..<TemporaryFiles.slots {
                    let path = TemporaryFiles.storage + slot * TemporaryFiles.pathLength
                    if path[0] != 0 { unlink(path) }
                }
                _exit(128 + number)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)  // -1 on error: then an interrupted run may leave its temporary file
        }
    }
}
