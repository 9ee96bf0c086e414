/// One encoded text frame, shared by every connection it is sent to: a change is
/// encoded once however many viewers receive it.
package final class OutgoingFrame: Sendable {
  public let utf8: [UInt8]

  public init(_ text: String) {
    utf8 = Array(text.utf8)
  }

  /// A frame of bytes that are UTF-8 already (an encoded message), without a copy.
  public init(utf8: [UInt8]) {
    self.utf8 = utf8
  }

  public var text: String { String(decoding: utf8, as: UTF8.self) }
}
