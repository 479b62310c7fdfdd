/// The version of RouteKit, as `routekit --version` prints it.
public enum RouteKitVersion { public static let current = "0.1.0" }
