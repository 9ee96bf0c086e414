/// A client's WebSocket text frame (RFC 6455 §5.2): FIN, the length in 7, 16 or 64 bits,
/// and the payload masked with `mask` (all zeros sends it as it is; the server unmasks
/// all the same).
func clientTextFrame(_ text: String, mask: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
  precondition(mask.count == 4, "a WebSocket mask is 4 bytes, not \(mask.count)")
  let payload = Array(text.utf8)
  var frame: [UInt8] = [0x81]
  if payload.count < 126 {
    frame.append(0x80 | UInt8(payload.count))
  } else if payload.count < 65536 {
    frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
  } else {
    frame.append(0x80 | 127)
    for shift in stride(from: 56, through: 0, by: -8) {
      frame.append(UInt8((payload.count >> shift) & 0xFF))
    }
  }
  frame += mask
  if mask == [0, 0, 0, 0] {
    frame += payload
  } else {
    for (offset, byte) in payload.enumerated() { frame.append(byte ^ mask[offset & 3]) }
  }
  return frame
}
