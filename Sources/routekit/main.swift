import Glibc
import RouteKitCLI

exit(RouteKitCLI.main(CommandLine.arguments))
