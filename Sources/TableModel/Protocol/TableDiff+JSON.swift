extension TableDiff {
  /// The members of a `diff` message after its `type`: list, from, to, ops.
  var jsonMembers: [(key: String, value: JSONValue)] {
    var opValues: [JSONValue] = []
    opValues.reserveCapacity(ops.count)
    for op in ops { opValues.append(op.jsonValue) }
    return [
      (WireKey.list, .string(list)),
      (WireKey.from, .int(from)),
      (WireKey.to, .int(to)),
      (WireKey.ops, .array(opValues)),
    ]
  }

  init(reading fields: FieldReader) throws(ProtocolError) {
    let list = try fields.string(WireKey.list)
    let from = try fields.int(WireKey.from)
    let to = try fields.int(WireKey.to)
    guard to == from + 1 else {
      throw ProtocolError(
        .badMessage, "field \"\(fields.name(of: WireKey.to))\" must be \"from\" + 1 (\(from + 1))")
    }
    var ops: [DiffOp] = []
    for opFields in try fields.objects(WireKey.ops) { ops.append(try DiffOp(reading: opFields)) }
    self.init(list: list, from: from, ops: ops)
  }
}
