import TableModel
import TableStore

extension DemoApp {
  static let contactCount = 520

  // Common given names and surnames; the people are invented, their places are real.
  private static let givenNames = [
    "Aaliyah", "Ada", "Aiko", "Alejandro", "Amara", "Anders", "Ángel", "Anika", "Arjun", "Astrid",
    "Beatriz", "Bruno", "Camille", "Chen", "Chloé", "Dagny", "Dmitri", "Elif", "Emeka", "Émile",
    "Farah", "Finn", "Freya", "Gabriel", "Hana", "Hiroshi", "Ines", "Ivan", "Jamal", "Jonas",
    "Kai", "Kalani", "Kofi", "Lars", "Leila", "Lucía", "Mateo", "Maya", "Mei", "Nadia",
    "Nikolai", "Noor", "Olga", "Omar", "Priya", "Quentin", "Rafael", "Ravi", "Rosa", "Saanvi",
    "Sofia", "Tariq", "Thea", "Tomás", "Uma", "Valentina", "Wei", "Xavier", "Yara", "Zoe",
  ]
  private static let surnames = [
    "Abe", "Adeyemi", "Almeida", "Andersson", "Bauer", "Bianchi", "Chowdhury", "Costa", "Dubois",
    "Eriksen", "Fernández", "Fischer", "García", "Haddad", "Hansen", "Ibrahim", "Ivanova", "Jensen",
    "Kaur", "Kim", "Kowalski", "Larsen", "López", "Mahlangu", "Martin", "Mensah", "Moreau",
    "Müller",
    "Nakamura", "Nguyen", "Novak", "Okafor", "Olsen", "Özdemir", "Park", "Patel", "Petrov",
    "Quispe",
    "Rahman", "Rossi", "Santos", "Schmidt", "Silva", "Singh", "Suzuki", "Tanaka", "Traoré", "Ueda",
    "Vargas", "Virtanen", "Wang", "Weber", "Xu", "Yamamoto", "Yilmaz", "Zhang", "Zielinski",
  ]

  /// An indexed list of people (subtitle cells), each drilling into a Contacts-like card.
  static func contacts(zones: ZoneTable) -> AppScreen {
    var generator = SplitMix64(seed: 0x7AB1E)
    var used = Set<String>()
    var rows: [AppRow] = []
    while rows.count < contactCount {
      let given = givenNames[generator.next(below: givenNames.count)]
      let surname = surnames[generator.next(below: surnames.count)]
      let name = "\(given) \(surname)"
      guard used.insert(name).inserted else { continue }
      let number = rows.count + 1
      let zone = zones.zones[generator.next(below: zones.zones.count)]
      let country = zone.countryCode.flatMap { zones.countries[$0] }
      let place = [zone.city, country].compactMap { $0 }.joined(separator: ", ")
      let phone = "+1 555 01\(String(format: "%02d", number % 100))"  // 555-01xx: for fiction
      let email =
        "\(given.lowercased().folding(options: .diacriticInsensitive, locale: nil)).\(number)@example.com"
      let card = AppScreen(
        id: "person-\(number)", title: name, style: .grouped,
        sections: [
          AppSection(
            id: "person-\(number)-phone",
            rows: [
              AppRow(id: "person-\(number)-mobile", text: "mobile", detail: phone, style: .value2),
              AppRow(id: "person-\(number)-email", text: "email", detail: email, style: .value2),
            ]),
          AppSection(
            id: "person-\(number)-place",
            rows: [
              AppRow(id: "person-\(number)-home", text: "home", detail: place, style: .value2),
              AppRow(
                id: "person-\(number)-zone", text: "time zone", detail: zone.identifier,
                style: .value2),
            ]),
        ])
      rows.append(
        AppRow(
          id: "contact-\(number)", text: name, detail: place, style: .subtitle,
          accessory: AccessoryType.none,
          children: card))
    }
    return AppScreen(
      id: "contacts", title: "Contacts", isEditable: true, isIndexed: true,
      sections: [AppSection(id: "contacts-all", rows: rows)], isSearchable: true)
  }
}
