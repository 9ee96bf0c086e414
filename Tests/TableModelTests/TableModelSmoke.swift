import Testing

@testable import TableModel
