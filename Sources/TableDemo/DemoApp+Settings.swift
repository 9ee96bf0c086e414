import Foundation
import TableModel
import TableStore

extension DemoApp {
  /// A Settings-like grouped screen: switches, value1 rows showing the current choice of a
  /// single-selection list, and Date & Time as the seeds describe it.
  static func settings(zones: ZoneTable) -> AppScreen {
    AppScreen(
      id: "settings", title: "Settings", style: .grouped,
      sections: [
        AppSection(
          id: "settings-connect",
          rows: [
            AppRow(id: "settings-airplane", text: "Airplane Mode", isOn: false),
            AppRow(
              id: "settings-wifi", text: "Wi-Fi", style: .value1,
              children: choice(
                id: "wifi", title: "Wi-Fi", header: "Networks",
                options: ["Home", "Office", "Library", "Café Central"], checked: "Home")),
            AppRow(id: "settings-bluetooth", text: "Bluetooth", isOn: true),
          ]),
        AppSection(
          id: "settings-sounds",
          rows: [
            AppRow(id: "settings-sounds-row", text: "Sounds", children: sounds())
          ]),
        AppSection(
          id: "settings-general",
          rows: [
            AppRow(id: "settings-general-row", text: "General", children: general(zones: zones))
          ]),
      ])
  }

  /// A single-selection list of `options`; the row that leads to it shows the checked one.
  static func choice(
    id: String, title: String, header: String? = nil, options: [String], checked: String
  ) -> AppScreen {
    AppScreen(
      id: id, title: title, style: .grouped, selection: .single,
      sections: [
        AppSection(
          id: "\(id)-options", header: header,
          rows: options.enumerated().map { index, option in
            AppRow(id: "\(id)-\(index)", text: option, isChecked: option == checked)
          })
      ])
  }

  static func sounds() -> AppScreen {
    AppScreen(
      id: "sounds", title: "Sounds", style: .grouped,
      sections: [
        AppSection(
          id: "sounds-vibrate", header: "Vibrate",
          rows: [
            AppRow(id: "sounds-vibrate-ring", text: "Vibrate on Ring", isOn: true),
            AppRow(id: "sounds-vibrate-silent", text: "Vibrate on Silent", isOn: false),
          ]),
        AppSection(
          id: "sounds-patterns", header: "Sounds and Vibration Patterns",
          rows: [
            AppRow(
              id: "sounds-ringtone", text: "Ringtone", style: .value1,
              children: choice(
                id: "ringtone", title: "Ringtone", header: "Ringtones",
                options: [
                  "Apex", "Beacon", "Bulletin", "Chimes", "Marimba", "Opening", "Radar", "Signal",
                ],
                checked: "Marimba")),
            AppRow(
              id: "sounds-text-tone", text: "Text Tone", style: .value1,
              children: choice(
                id: "text-tone", title: "Text Tone",
                options: ["Note", "Aurora", "Bamboo", "Chord", "Popcorn"],
                checked: "Note")),
          ]),
      ])
  }

  static func general(zones: ZoneTable) -> AppScreen {
    AppScreen(
      id: "general", title: "General", style: .grouped,
      sections: [
        AppSection(
          id: "general-about",
          rows: [AppRow(id: "general-about-row", text: "About", children: about())]),
        AppSection(
          id: "general-time",
          rows: [
            AppRow(
              id: "general-date-time", text: "Date & Time", children: dateAndTime(zones: zones)),
            AppRow(id: "general-language", text: "Language", style: .value1, children: languages()),
          ]),
      ])
  }

  /// Facts about the machine serving the demo.
  static func about() -> AppScreen {
    let info = ProcessInfo.processInfo
    let memory = ByteCountFormatter.string(
      fromByteCount: Int64(info.physicalMemory), countStyle: .memory)
    return AppScreen(
      id: "about", title: "About", style: .grouped,
      sections: [
        AppSection(
          id: "about-host",
          rows: [
            AppRow(id: "about-name", text: "Name", detail: info.hostName, style: .value1),
            AppRow(
              id: "about-system", text: "System", detail: info.operatingSystemVersionString,
              style: .value1),
            AppRow(
              id: "about-cores", text: "Processors", detail: "\(info.processorCount)",
              style: .value1),
            AppRow(id: "about-memory", text: "Memory", detail: memory, style: .value1),
          ])
      ])
  }

  /// "When you turn off the automatic date and time setting … the list group expands
  /// smoothly to display two new items, Time Zone and Set Date & Time."
  static func dateAndTime(zones: ZoneTable) -> AppScreen {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "MMM d, yyyy 'at' HH:mm"
    return AppScreen(
      id: "date-time", title: "Date & Time", style: .grouped,
      sections: [
        AppSection(
          id: "date-time-format",
          rows: [AppRow(id: "date-time-24", text: "24-Hour Time", isOn: true)]),
        AppSection(
          id: "date-time-set",
          rows: [
            AppRow(id: "date-time-auto", text: "Set Automatically", isOn: true),
            AppRow(
              id: "date-time-zone", text: "Time Zone", style: .value1,
              showWhen: ShowWhen(row: "date-time-auto", isOn: false),
              children: timeZones(zones: zones)),
            AppRow(
              id: "date-time-manual", text: "Set Date & Time",
              detail: formatter.string(from: Date()),
              style: .value1, showWhen: ShowWhen(row: "date-time-auto", isOn: false)),
          ]),
      ])
  }

  /// Every time zone Foundation knows, grouped by region; the machine's own is checked.
  static func timeZones(zones: ZoneTable) -> AppScreen {
    let current = TimeZone.current.identifier
    var identifiers = TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") }
    if !identifiers.contains(current) { identifiers.append(current) }
    var regions: [String] = []
    var byRegion: [String: [String]] = [:]
    for identifier in identifiers.sorted() {
      let region = ZoneTable.Zone(identifier: identifier).region
      if byRegion[region] == nil { regions.append(region) }
      byRegion[region, default: []].append(identifier)
    }
    return AppScreen(
      id: "time-zones", title: "Time Zone", style: .grouped, selection: .single,
      sections: regions.map { region in
        AppSection(
          id: "tz-region-\(region)", header: region,
          rows: byRegion[region, default: []].map { identifier in
            let city = ZoneTable.Zone(identifier: identifier).city
            return AppRow(
              id: "tz-\(identifier)", text: city.isEmpty ? identifier : city,
              detail: ZoneTable.offset(of: identifier), style: .value1,
              isChecked: identifier == current)
          })
      })
  }

  /// The languages ICU names in English, as a single-selection list.
  static func languages() -> AppScreen {
    let english = Locale(identifier: "en_US")
    var names = Set<String>()
    for identifier in Locale.availableIdentifiers where !identifier.contains("_") {
      if let name = english.localizedString(forLanguageCode: identifier) { names.insert(name) }
    }
    if names.isEmpty { names = ["English", "French", "German", "Spanish"] }
    let sorted = names.sorted()
    return AppScreen(
      id: "language", title: "Language", selection: .single,
      sections: [
        AppSection(
          id: "language-all",
          rows: sorted.enumerated().map { index, name in
            AppRow(
              id: "language-\(index)", text: name,
              isChecked: name == "English" || (index == 0 && !sorted.contains("English")))
          })
      ])
  }
}
