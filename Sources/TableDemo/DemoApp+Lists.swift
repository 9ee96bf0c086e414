import Foundation
import TableModel
import TableStore

extension DemoApp {
  /// An editable list: insert, delete, reorder, and check off (multiple selection).
  static func tasks() -> AppScreen {
    let today = [
      "Read the Table View Programming Guide", "Try the Date & Time switch", "Reorder this list",
      "Open this screen in a second window", "Delete a finished task",
    ]
    let later = ["Import a data file", "Export it again", "Compare the two files"]
    var screen = AppScreen(
      id: "tasks", title: "Tasks", selection: .multiple, isEditable: true,
      footer: "Tap a task to check it off; Edit to delete and reorder.",
      sections: [
        AppSection(
          id: "tasks-today", header: "Today",
          rows: today.enumerated().map {
            var row = AppRow(id: "task-today-\($0)", text: $1, isChecked: $0 == 0)
            if $0 == 0 { row.actions = ["delete"] }  // a done task offers Delete alone
            return row
          }),
        AppSection(
          id: "tasks-later", header: "Later",
          rows: later.enumerated().map { AppRow(id: "task-later-\($0)", text: $1) }),
      ])
    screen.actions = [
      AppAction(
        RowAction(id: "flag", title: "Flag", edge: .leading, color: .orange), effect: .flag),
      AppAction(
        RowAction(id: "delete", title: "Delete", edge: .trailing, color: .red), effect: .delete),
    ]
    return screen
  }

  /// A multiple-selection list of the week's days, named by the system's calendar.
  static func repeatDays() -> AppScreen {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US")
    let days =
      calendar.weekdaySymbols.count == 7
      ? calendar.weekdaySymbols
      : ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    return AppScreen(
      id: "repeat", title: "Repeat", selection: .multiple,
      sections: [
        AppSection(
          id: "repeat-days",
          rows: days.enumerated().map { index, day in
            AppRow(id: "repeat-\(index)", text: "Every \(day)", isChecked: (1...5).contains(index))
          })
      ])
  }
}
