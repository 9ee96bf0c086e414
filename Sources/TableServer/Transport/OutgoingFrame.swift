/// One encoded text frame, shared by every connection it is sent to: a change is
/// encoded once however many viewers receive it.
public final class OutgoingFrame: Sendable {
  public let utf8: [UInt8]

  public init(_ text: String) {
    utf8 = Array(text.utf8)
  }

  public var text: String { String(decoding: utf8, as: UTF8.self) }
}
