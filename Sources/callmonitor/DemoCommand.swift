// `callmonitor demo`: its options and help, read into `DemoOptions` for the Demo (Demo.swift).

import Dispatch
import ScenarioLanguage
import hnb

struct DemoCommand: ToolCommand {
    let name = "demo"

    /// What the demo plays without options; the help and the summary say these same values.
    private static var defaults: DemoOptions { DemoOptions() }

    var options: [CommandOption] {
        let range = PolicyWords.optionSeconds
        return [
            CommandOption("--flow", "terminate|acknowledge", "the policy (default \(Self.defaults.flow))"),
            CommandOption("--seconds", "N", """
                the countdown or the acknowledge delay, \(range.lowerBound) to \(range.upperBound) (default \(Self.defaults.seconds);
                terminate clamps 0 to 1)
                """),
            CommandOption("--speed", "X", "play X times faster, 0.1 to 1000 (default 1)"),
            CommandOption("--language", "CODE", """
                language of the dialog: \(Languages.available.joined(separator: " "))
                (only the dialog: it is what the user sees; the narration
                around it explains the library to you and stays in English)
                """),
            CommandOption(flag: "--interactive", "drive it yourself with keys instead of the built-in story"),
            CommandOption("--record", "FILE", "record the monitor's session on the live clock to FILE (replay it with\n'callmonitor replay FILE --check')"),
        ]
    }

    var summary: String {
        "Plays the policy in real time in the terminal. Defaults: "
            + "\(PolicyWords.describe(Self.defaults.flow, seconds: Self.defaults.seconds)), speed 1."
    }

    let about = """
        Plays the policy in real time through the production engine and the live scheduler, drawing the
        built-in dialog as a box that fits the terminal (plain lines when the output is not a terminal).
        """

    let details: String? = """
        interactive keys:
          i   a new incoming call            a   answer the latest ringing call
          h   hang up the latest call        t   tap the dialog's button
          b   background / foreground        q   quit (Ctrl-C too)

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, words) = parseOptions(arguments)
        guard words.isEmpty else { fail("demo takes no arguments besides its options\n\(help)") }
        var demoOptions = DemoOptions()
        do throws(PolicyWordError) {
            if let flow = options["--flow"] { demoOptions.flow = try PolicyWords.flow(flow, option: "--flow") }
            if let seconds = options["--seconds"] { demoOptions.seconds = try PolicyWords.seconds(seconds, option: "--seconds") }
        } catch {
            fail(error)
        }
        if let text = options["--speed"] {
            guard let speed = Double(text), speed.isFinite, speed >= 0.1, speed <= 1000 else {
                fail("--speed must be a number from 0.1 to 1000")
            }
            demoOptions.speed = speed
        }
        demoOptions.strings = strings(forLanguage: options["--language"])
        demoOptions.interactive = options["--interactive"] != nil
        demoOptions.record = options["--record"]
        let demo = Demo(options: demoOptions)
        demo.start()
        withExtendedLifetime(demo) { dispatchMain() }
    }
}
