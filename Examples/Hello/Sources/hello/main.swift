import Foundation
import ServiceLifecycle
import Tableweb

// A list of fruit, served on http://127.0.0.1:8080/ (or the port given as an argument).
let fruit = ["Apples", "Bananas", "Cherries"]
func shelf(_ names: [String]) -> TableSnapshot {
  TableSnapshot(
    list: "fruit", title: "Fruit", style: .insetGrouped,
    sections: [
      Section(id: "all", header: "In stock", rows: names.map { Row(id: $0, text: $0) })
    ])
}

let lists = SnapshotDataSource(root: shelf(fruit))
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8080
let server = TablewebServer(
  dataSource: lists, configuration: .init(port: port),
  onServerRunning: { port in print("hello: open http://127.0.0.1:\(port)/") })

// Every two seconds one more fruit arrives: every open browser gets it as a diff.
Task {
  var stock = fruit
  for extra in ["Dates", "Elderberries", "Figs"] {
    try await Task.sleep(for: .seconds(2))
    stock.append(extra)
    lists.apply(shelf(stock))
  }
}
// Until Ctrl-C or SIGTERM: then every browser is told goodbye (1001) before the program ends.
try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigint, .sigterm]).run()
