// Linux only (glibc's closefrom action); the tests and benchmarks that spawn run there. On
// Darwin, `POSIX_SPAWN_CLOEXEC_DEFAULT` would do what the closefrom action does here.
#if canImport(Glibc)
  import Glibc

  /// A program this process starts, holding descriptors 0–2 and nothing else of ours.
  ///
  /// `posix_spawn` on Linux hands the child every descriptor not marked close-on-exec: a
  /// PostgreSQL cluster started by the tests held their sockets and a pipe of `swift test`'s
  /// until it stopped. Here the child closes everything from 3 up as it starts (glibc's
  /// `posix_spawn_file_actions_addclosefrom_np`), in one step, so a descriptor another
  /// thread opens meanwhile cannot slip through. Foundation's `Process` closes the
  /// descriptors it finds open but leaves the child one socket of its own (it watches that
  /// socket for the child's end), which every grandchild then holds too.
  ///
  /// Every spawn of the package's tests and benchmarks goes through here (`package`: not part
  /// of the `Tableweb` library's API). It lives in TableStore, the lowest module with I/O
  /// that they all depend on; TableModel does none.
  ///
  /// Not thread-safe: use an instance from one thread at a time.
  package final class ChildProcess {
    /// Where one of the child's descriptors 0, 1 and 2 comes from.
    package enum Stream {
      /// This process's own descriptor of the same number.
      case inherit
      /// `/dev/null`.
      case null
      /// A file: read from (descriptor 0), or appended to and created if need be (1, 2).
      case file(String)
      /// A descriptor of this process (a pipe's end, say): the child gets a copy.
      case descriptor(Int32)
    }

    package struct SpawnError: Error, CustomStringConvertible {
      package var description: String
    }

    package let processIdentifier: pid_t
    /// The wait status, once the child has ended and was reaped (-1: reaped by someone else).
    private var waitStatus: Int32?

    /// Starts `argv[0]` (a path; no search of `PATH`) with `argv` as its arguments, in the
    /// environment given (this process's when nil), with its signal mask empty and every
    /// signal's action the default one (not what this process ignores or blocks).
    package init(
      _ argv: [String], environment: [String: String]? = nil,
      input: Stream = .null, output: Stream = .inherit, error: Stream = .inherit
    ) throws(SpawnError) {
      precondition(!argv.isEmpty, "ChildProcess needs a program to run")
      guard let closeFrom = addCloseFrom else {
        throw SpawnError(
          description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later)")
      }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      for (fd, stream) in [(Int32(0), input), (1, output), (2, error)] {
        let code: Int32
        switch stream {
        case .inherit: code = 0
        case .null: code = posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0)
        case .file(let path):
          let flags = fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND
          code = posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o644)
        case .descriptor(let source): code = posix_spawn_file_actions_adddup2(&actions, source, fd)
        }
        guard code == 0 else { throw Self.error(argv, code) }
      }
      let closing = closeFrom(&actions, 3)
      guard closing == 0 else { throw Self.error(argv, closing) }

      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var none = sigset_t()
      var all = sigset_t()
      sigemptyset(&none)
      sigfillset(&all)
      posix_spawnattr_setsigmask(&attributes, &none)
      posix_spawnattr_setsigdefault(&attributes, &all)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

      let cArguments = argv.map { strdup($0) } + [nil]
      defer { for pointer in cArguments { free(pointer) } }
      let cEnvironment = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
      defer { for pointer in cEnvironment ?? [] { free(pointer) } }
      var pid: pid_t = 0
      let code =
        if var cEnvironment {
          posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, &cEnvironment)
        } else {
          posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        }
      guard code == 0 else { throw Self.error(argv, code) }
      processIdentifier = pid
    }

    private static func error(_ argv: [String], _ code: Int32) -> SpawnError {
      SpawnError(description: "cannot start \(argv[0]): \(String(cString: strerror(code)))")
    }

    /// Whether the child is still running (it is reaped once it has ended).
    package var isRunning: Bool {
      guard waitStatus == nil else { return false }
      var status: Int32 = 0
      switch waitpid(processIdentifier, &status, WNOHANG) {
      case 0: return true
      case processIdentifier:
        waitStatus = status
        return false
      default: return false
      }
    }

    /// Blocks until the child has ended, and reaps it.
    package func waitUntilExit() {
      guard waitStatus == nil else { return }
      var status: Int32 = 0
      var result: pid_t
      repeat {
        result = waitpid(processIdentifier, &status, 0)
      } while result == -1 && errno == EINTR
      waitStatus = result == processIdentifier ? status : -1
    }

    /// How the child ended, as a shell tells it: its exit code, or 128 + the signal that
    /// ended it. Only once it was reaped (``waitUntilExit()``, or ``isRunning`` said false).
    package var terminationStatus: Int32 {
      guard let status = waitStatus else {
        preconditionFailure("process \(processIdentifier) was not reaped yet")
      }
      let signal = status & 0x7f
      return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Sends SIGTERM, unless the child was already reaped (its pid may be someone else's now).
    package func terminate() {
      guard waitStatus == nil else { return }
      kill(processIdentifier, SIGTERM)
    }
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`: Swift's Glibc module is imported
  /// without `_GNU_SOURCE`, which declares it, so it is looked up by name once.
  private let addCloseFrom = dlsym(
    dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np"
  )
  .map { unsafeBitCast($0, to: AddCloseFrom.self) }

  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
#endif
