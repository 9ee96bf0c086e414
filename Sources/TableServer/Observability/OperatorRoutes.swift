/// What a load balancer and a Prometheus scraper ask for: `GET /healthz` (`200 ok` when
/// the data can be read, `503` otherwise) and `GET /metrics` (Prometheus text). Neither
/// is ever behind access credentials, and neither carries row text or ids.
///
/// `/healthz` is answered later (`HealthProbe`): its check may wait on the database,
/// the service thread must not.
///
/// - Important: Called on the service thread.
final class OperatorRoutes: HTTPResponder {
  static let health = "/healthz"
  static let metrics = "/metrics"

  let telemetry: ServerTelemetry
  let health: HealthProbe
  let servesMetrics: Bool

  init(telemetry: ServerTelemetry, healthCheck: @escaping @Sendable () -> Bool, servesMetrics: Bool)
  {
    self.telemetry = telemetry
    self.health = HealthProbe(healthCheck)
    self.servesMetrics = servesMetrics
  }

  static func paths(servesMetrics: Bool) -> [String] {
    servesMetrics ? [health, metrics] : [health]
  }

  func respond(to request: HTTPRequest) -> HTTPResponse? {
    switch request.path {
    case Self.metrics where servesMetrics:
      return HTTPResponse(
        status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
        body: telemetry.prometheusText())
    default:
      return nil
    }
  }

  func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) {
    telemetry.httpRefused(request, refusal)
  }

  func respondLater(
    to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void
  ) -> Bool {
    guard request.path == Self.health else { return false }
    health.ask { isHealthy in
      answer(
        isHealthy
          ? HTTPResponse(status: 200, text: "ok\n")
          : HTTPResponse(status: 503, text: "the database cannot be read\n"))
    }
    return true
  }
}
