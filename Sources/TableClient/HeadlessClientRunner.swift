import Foundation
import TableModel

/// `tableweb client`: connects, says hello, runs script lines and prints what the server
/// shows. The protocol decisions are ``HeadlessClient``'s; this only moves text between
/// the socket, the script and the output, with a time limit on every wait.
///
/// Not thread-safe: run it on one thread (it blocks while waiting for the server).
public struct HeadlessClientRunner {
  public struct Options: Sendable {
    public var url: String
    public var session: String?
    /// The access credential sent in `hello` (`--access`), for a server that requires one.
    public var access: String?
    /// Print every received message as one JSON line, and nothing else on standard output;
    /// `presence` only with ``name``.
    public var printsJSON = false
    /// Stop with exit code 1 at the first `error` (and 2 at a script line that cannot run).
    public var isStrict = false
    /// The name `hello` gives (`--name`): what others see this client as (Presence).
    public var name: String?
    /// How long to wait for the connection, the first screen and each command's answer.
    public var timeout: Duration = .seconds(5)

    public init(url: String, session: String? = nil, access: String? = nil) {
      self.url = url
      self.session = session
      self.access = access
    }
  }

  /// Exit codes.
  public enum Exit: Int32, Sendable {
    case finished = 0
    /// `--strict` and the server answered `error`.
    case serverError = 1
    /// The server is unreachable or refused the connection, or a script line is wrong
    /// under `--strict`.
    case cannotRun = 2
    /// The connection was lost, or the server did not answer in time.
    case lost = 3
  }

  private let options: Options
  private let write: (String) -> Void
  private let writeError: (String) -> Void
  private var state: HeadlessClient
  private var screenChanged = false
  /// The last presence line printed for each list: a line is printed when it changes.
  private var presenceShown: [String: String] = [:]
  private var exit: Exit?

  /// - Parameters:
  ///   - write: receives each line for standard output.
  ///   - writeError: receives each line for standard error.
  public init(
    options: Options, write: @escaping (String) -> Void,
    writeError: @escaping (String) -> Void
  ) {
    self.options = options
    self.write = write
    self.writeError = writeError
    state = HeadlessClient(session: options.session, access: options.access)
    state.name = options.name
  }

  /// What a line source has for the runner.
  public enum NextLine: Sendable, Equatable {
    case line(String)
    /// Nothing typed yet: the runner shows what arrives meanwhile and asks again.
    case notYet
    case end
  }

  /// Runs a script: until `nextLine` returns nil, `quit`, or a failure.
  public mutating func runScript(nextLine: () -> String?) -> Exit {
    run(poll: { nextLine().map(NextLine.line) ?? .end })
  }

  /// Runs lines as a person types them: `poll` answers at once, and while it has no line
  /// the screen follows what other people change.
  public mutating func run(poll: () -> NextLine) -> Exit {
    var client: WebSocketClient
    do {
      client = try WebSocketClient(url: options.url)
    } catch {
      writeError("tableweb client: \(error)")
      return .cannotRun
    }
    client.connect()
    defer { client.shutDown() }
    switch client.nextEvent(timeout: options.timeout) {
    case .opened?:
      break
    case .failed(let reason, let status)?:
      let why = status.map { "the server refused the connection (HTTP \($0))" } ?? reason
      writeError("tableweb client: cannot connect to \(options.url): \(why)")
      return .cannotRun
    default:
      writeError(
        "tableweb client: cannot connect to \(options.url): no answer in \(options.timeout)")
      return .cannotRun
    }

    client.send(state.hello())
    pump(&client, for: options.timeout) { $0.session != nil && $0.screen != nil }
    if let exit { return exit }
    guard state.screen != nil else {
      writeError("tableweb client: no welcome and screen within \(options.timeout)")
      return .lost
    }
    showScreenIfChanged()

    var lineNumber = 0
    while true {
      let line: String
      switch poll() {
      case .end:
        return finish(client)
      case .notYet:
        pump(&client, for: .milliseconds(50)) { _ in false }
        showScreenIfChanged()
        if let exit { return exit }
        continue
      case .line(let text):
        line = text
      }
      lineNumber += 1
      let command: ScriptCommand
      do {
        guard let parsed = try ScriptCommand.parse(line) else { continue }
        command = parsed
      } catch {
        writeError("line \(lineNumber): \(error.message)")
        if options.isStrict { return .cannotRun }
        continue
      }
      switch state.run(command) {
      case .quit:
        return finish(client)
      case .wait(let milliseconds):
        pump(&client, for: .milliseconds(milliseconds)) { _ in false }
      case .refuse(let reason):
        writeError("line \(lineNumber): \(reason)")
        if options.isStrict { return .cannotRun }
      case .send(let text, let ref):
        client.send(text)
        pump(&client, for: options.timeout) { !$0.unanswered.contains(ref) }
        if exit == nil && state.unanswered.contains(ref) {
          writeError("line \(lineNumber): no answer within \(options.timeout)")
          exit = .lost
        }
      }
      showScreenIfChanged()
      if let exit { return exit }
    }
  }

  /// Closes politely (the server sees a close frame, not a dropped socket).
  private mutating func finish(_ client: WebSocketClient) -> Exit {
    let result = exit ?? .finished
    client.close()
    let deadline = ContinuousClock.now + .seconds(1)
    while case let remaining = deadline - ContinuousClock.now, remaining > .zero,
      let event = client.nextEvent(timeout: remaining)
    {
      if case .closed = event { break }
      if case .failed = event { break }
    }
    return result
  }

  /// Handles what arrives until `isDone` holds, `duration` has passed, or the run must end.
  private mutating func pump(
    _ client: inout WebSocketClient, for duration: Duration,
    until isDone: (HeadlessClient) -> Bool
  ) {
    let deadline = ContinuousClock.now + duration
    while exit == nil && !isDone(state) {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, let event = client.nextEvent(timeout: remaining) else { return }
      switch event {
      case .opened:
        break
      case .message(let text):
        handle(text, client: client)
      case .closed(let status, let reason):
        writeError(
          "tableweb client: the server closed the connection (\(status.map(String.init) ?? "no status") \(reason))"
        )
        // Refused access (4401) does not change by trying again.
        if status == 4401 || !reconnect(&client) { exit = .lost }
      case .failed(let reason, _):
        writeError("tableweb client: connection lost: \(reason)")
        if !reconnect(&client) { exit = .lost }
      }
    }
  }

  /// Connects again after a drop, with back-off, within the timeout, and says hello with
  /// the session and the screen's list and version: the server sends only what changed
  /// meanwhile (`caughtUp`) or the screen again. Commands sent before the drop stay
  /// unanswered; they are not waited for.
  private mutating func reconnect(_ client: inout WebSocketClient) -> Bool {
    guard state.session != nil else { return false }
    client.shutDown()
    state.connectionLost()
    let deadline = ContinuousClock.now + options.timeout
    for delay in [100, 250, 500, 1000, 2000, 2000, 2000] {
      Thread.sleep(forTimeInterval: Double(delay) / 1000)
      guard ContinuousClock.now < deadline else { return false }
      let next: WebSocketClient
      do {
        next = try WebSocketClient(url: options.url)
      } catch {
        writeError("tableweb client: cannot reconnect: \(error)")
        return false
      }
      next.connect()
      if case .opened? = next.nextEvent(timeout: .seconds(2)) {
        writeError("tableweb client: reconnected")
        client = next
        client.send(state.hello())
        return true
      }
      next.shutDown()
    }
    return false
  }

  private mutating func handle(_ text: String, client: WebSocketClient) {
    if options.printsJSON {
      // One line per message, whatever white space the server used; a frame that is not
      // JSON is shown as it came (`receive` reports it).
      switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue(parsing: text) }) {
      case .success(let value):
        // Presence only for a client that takes part in it (`--name`): the lines a script
        // reads stay as they were for the others.
        if value["type"] == .string("presence") && options.name == nil { break }
        write(value.serialized)
      case .failure: write(text)
      }
    }
    switch state.receive(text) {
    case .welcomed(let session, let resumed):
      if !options.printsJSON { write("session: \(session) (\(resumed ? "resumed" : "new"))") }
    case .screenChanged:
      screenChanged = true
    case .answered:
      break
    case .failed(let ref, let error):
      if !options.printsJSON {
        write("error \(error.code.rawValue)\(ref.map { " (ref \($0))" } ?? ""): \(error.message)")
      }
      if options.isStrict { exit = .serverError }
    case .notice(let notice):
      if !options.printsJSON { write("notice: \(notice)") }
    case .history(let history):
      guard !options.printsJSON else { break }
      let now = Int(Date().timeIntervalSince1970)
      if history.entries.isEmpty, !history.live { write("history: no entries") }
      for entry in history.entries { write("history: \(entry.line(relativeTo: now))") }
    case .presence(let presence):
      let line = Self.presenceLine(presence)
      if !options.printsJSON, presenceShown[presence.list] != line {
        presenceShown[presence.list] = line
        write(line)
      }
    case .resync(let reload, let reason):
      writeError("tableweb client: \(reason); reloading")
      client.send(reload)
    case .ignored:
      break
    case .unreadable(let reason):
      writeError("tableweb client: unreadable message (\(reason)): \(text.prefix(200))")
    }
  }

  /// `presence Ltasks: Ann (editor, you), Guest 2 (viewer, swiping Rmilk)`.
  static func presenceLine(_ presence: Presence) -> String {
    let viewers = presence.viewers.map { viewer in
      var traits = [viewer.role.rawValue]
      if viewer.isYou { traits.append("you") }
      if let activity = viewer.activity {
        traits.append(activity.rawValue + (viewer.row.map { " \($0)" } ?? ""))
      }
      return "\(viewer.name) (\(traits.joined(separator: ", ")))"
    }
    let more =
      presence.count > presence.viewers.count
      ? " and \(presence.count - presence.viewers.count) more" : ""
    return "presence \(presence.list): \(viewers.joined(separator: ", "))\(more)"
  }

  private mutating func showScreenIfChanged() {
    guard screenChanged, let screen = state.screen else { return }
    screenChanged = false
    if !options.printsJSON { write(screen.text) }
  }
}
