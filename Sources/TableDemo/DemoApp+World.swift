import TableModel
import TableStore

extension DemoApp {
  /// Three levels, like the guide's trails example: regions → countries → a grouped
  /// detail screen whose time zones have detail disclosure buttons.
  static func world(zones: ZoneTable) -> AppScreen {
    var regions: [String] = []
    var countriesByRegion: [String: [String]] = [:]
    var zonesByCountry: [String: [ZoneTable.Zone]] = [:]
    for zone in zones.zones {
      let country = zone.countryCode ?? zone.identifier
      if zonesByCountry[country] == nil {
        if countriesByRegion[zone.region] == nil { regions.append(zone.region) }
        countriesByRegion[zone.region, default: []].append(country)
      }
      zonesByCountry[country, default: []].append(zone)
    }
    regions.sort()
    func name(_ country: String) -> String { zones.countries[country] ?? country }
    return AppScreen(
      id: "world", title: "World", header: "Regions of the tz database",
      sections: [
        AppSection(
          id: "world-regions",
          rows: regions.map { region in
            let countries = countriesByRegion[region, default: []].sorted { name($0) < name($1) }
            return AppRow(
              id: "region-\(region)", text: region.replacingOccurrences(of: "_", with: " "),
              detail: "\(countries.count)", style: .value1,
              children: AppScreen(
                id: "region-\(region)-list", title: region.replacingOccurrences(of: "_", with: " "),
                sections: [
                  AppSection(
                    id: "region-\(region)-countries",
                    rows: countries.map { country in
                      AppRow(
                        id: "country-\(country)", text: name(country),
                        detail: zonesByCountry[country, default: []].count == 1
                          ? zonesByCountry[country]?.first?.city
                          : "\(zonesByCountry[country, default: []].count) time zones",
                        style: .subtitle,
                        children: countryDetail(
                          country, name: name(country), zones: zonesByCountry[country, default: []])
                      )
                    })
                ]))
          })
      ])
  }

  static func countryDetail(_ code: String, name: String, zones: [ZoneTable.Zone]) -> AppScreen {
    AppScreen(
      id: "country-\(code)-detail", title: name, style: .grouped,
      sections: [
        AppSection(
          id: "country-\(code)-facts", header: "Country",
          rows: [
            AppRow(id: "country-\(code)-name", text: "name", detail: name, style: .value2),
            AppRow(id: "country-\(code)-code", text: "ISO code", detail: code, style: .value2),
          ]),
        AppSection(
          id: "country-\(code)-zones", header: "Time zones",
          footer: "Tap ⓘ for a zone's details.",
          rows: zones.map { zone in
            AppRow(
              id: "zone-\(zone.identifier)", text: zone.city.isEmpty ? zone.identifier : zone.city,
              detail: ZoneTable.offset(of: zone.identifier), style: .value1,
              accessory: .detailDisclosureButton,
              children: zoneDetail(zone))
          }),
      ])
  }

  static func zoneDetail(_ zone: ZoneTable.Zone) -> AppScreen {
    var rows = [
      AppRow(
        id: "zone-\(zone.identifier)-id", text: "identifier", detail: zone.identifier,
        style: .value2),
      AppRow(
        id: "zone-\(zone.identifier)-offset", text: "offset now",
        detail: ZoneTable.offset(of: zone.identifier), style: .value2),
    ]
    if let coordinates = zone.coordinates {
      rows.append(
        AppRow(
          id: "zone-\(zone.identifier)-at", text: "position", detail: coordinates, style: .value2))
    }
    if let comment = zone.comment, !comment.isEmpty {
      rows.append(
        AppRow(id: "zone-\(zone.identifier)-note", text: "covers", detail: comment, style: .value2))
    }
    return AppScreen(
      id: "zone-\(zone.identifier)-detail", title: zone.city.isEmpty ? zone.identifier : zone.city,
      style: .grouped,
      sections: [AppSection(id: "zone-\(zone.identifier)-facts", rows: rows)])
  }
}
