// `callmonitor watch`: its options and help, read into `WatchOptions` for the WatchSession
// (Watch.swift), which exists only in a Linux build with the Telephony trait. The options are
// checked in every build, so a mistake is named before the missing trait is.

import Dispatch
import ScenarioLanguage
import hnb

struct WatchCommand: ToolCommand {
    let name = "watch"

    /// What watch does without options; the help says these same values.
    private static var defaults: WatchOptions { WatchOptions() }

    var options: [CommandOption] {
        let range = PolicyWords.optionSeconds
        return [
            CommandOption("--backend", "modemmanager|ofono|auto", """
                the daemon to read (default auto: ModemManager if it is on
                the bus, else oFono, else the first of them to appear)
                """),
            CommandOption("--flow", "terminate|acknowledge", "the policy (default \(Self.defaults.flow))"),
            CommandOption("--seconds", "N", """
                the countdown or the acknowledge delay, \(range.lowerBound) to \(range.upperBound) (default \(Self.defaults.seconds);
                terminate clamps 0 to 1)
                """),
            CommandOption("--language", "CODE", "language of the dialog: \(Languages.available.joined(separator: " "))"),
            CommandOption(flag: "--no-exit", "report the force exit instead of performing it"),
            CommandOption("--record", "FILE", "record the monitor's session to FILE (replay it with\n'callmonitor replay FILE --check')"),
        ]
    }

    let summary = """
        Monitors this Linux phone's real calls (ModemManager or oFono over D-Bus); needs a build
        with --traits Telephony. Dialog on the terminal, transcript as JSON Lines, real exit at 0.
        """

    let about = """
        Runs the real monitor against this Linux phone's telephony daemon over the D-Bus system bus
        (DBUS_SYSTEM_BUS_ADDRESS if set). Needs a build with the Telephony trait: swift build --traits
        Telephony (Debian: libdbus-1-dev). The dialog is drawn on standard error when it is a terminal;
        standard output gets a transcript as JSON Lines; a line on standard input taps the dialog's button.
        """

    let details: String? = """
        transcript kinds: watch, telephony (status watching|waiting|lost|failed), calls (complete, each
        call's id, state ringing|connected|held|ended and direction), event, alert, dismiss, exit, tap,
        stopped. t is real seconds since the start.

        exit status: 0 when the terminate countdown force-exits; 128+signal when stopped (Ctrl-C: 130);
        2 on a bad option or a build without the Telephony trait.

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, words) = parseOptions(arguments)
        guard words.isEmpty else { fail("watch takes no arguments besides its options\n\(help)") }
        var watchOptions = WatchOptions()
        #if os(Linux)
        switch options["--backend"] {
        case nil, "auto"?: watchOptions.backend = .auto
        case let name?:
            guard let backend = Telephony.Backend(rawValue: name) else { fail("--backend must be modemmanager, ofono or auto") }
            watchOptions.backend = .only(backend)
        }
        #else
        // The telephony types exist only on Linux; the option is still checked the same way.
        if let name = options["--backend"], !["auto", "modemmanager", "ofono"].contains(name) {
            fail("--backend must be modemmanager, ofono or auto")
        }
        #endif
        do throws(PolicyWordError) {
            if let flow = options["--flow"] { watchOptions.flow = try PolicyWords.flow(flow, option: "--flow") }
            if let seconds = options["--seconds"] { watchOptions.seconds = try PolicyWords.seconds(seconds, option: "--seconds") }
        } catch {
            fail(error)
        }
        watchOptions.strings = strings(forLanguage: options["--language"])
        watchOptions.performExit = options["--no-exit"] == nil
        watchOptions.record = options["--record"]
        #if Telephony && os(Linux)
        let session = WatchSession(options: watchOptions)
        session.start()
        withExtendedLifetime(session) { dispatchMain() }
        #else
        fail("watch needs telephony support: build with `swift build --traits Telephony` on Linux (Debian: apt-get install libdbus-1-dev)")
        #endif
    }
}
