import TableModel
import TableStore

/// The app a new database starts with: a grouped root menu leading to one screen for each
/// feature of the seeds. Built from data the machine has where it can (time zones,
/// countries, languages, weekdays, the host itself); invented only where real data would
/// mean inventing details about real people (the contacts' names).
enum DemoApp {
  static func make() -> AppScreen {
    let zones = ZoneTable.load()
    return AppScreen(
      id: "root", title: "tableweb", style: .grouped,
      sections: [
        AppSection(
          id: "root-browse", header: "Browse",
          rows: [
            AppRow(
              id: "root-contacts", text: "Contacts", detail: "\(contactCount) people",
              style: .value1,
              children: contacts(zones: zones)),
            AppRow(id: "root-world", text: "World", children: world(zones: zones)),
            AppRow(
              id: "root-hebrew", text: "עברית", detail: "Hebrew", style: .value1,
              children: hebrew()),
          ]),
        AppSection(
          id: "root-configure", header: "Configure",
          rows: [
            AppRow(id: "root-settings", text: "Settings", children: settings(zones: zones))
          ]),
        AppSection(
          id: "root-edit", header: "Edit and choose",
          footer: "Everyone viewing a list sees every change to it live.",
          rows: [
            AppRow(id: "root-tasks", text: "Tasks", children: tasks()),
            AppRow(id: "root-repeat", text: "Repeat", children: repeatDays()),
            AppRow(id: "root-mail", text: "Mail", children: mail()),
          ]),
      ])
  }
}
