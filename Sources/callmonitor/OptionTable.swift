// The table each command declares its options in: per option its name, whether it takes a value,
// how the value is read into the command's typed options (and refused when it is wrong), and its
// help. The parser, the synopsis and the help's options table all read the one table, so they
// cannot disagree. Pure: `parse` returns what it found or why the words were refused;
// ToolCommand.parse(_:) turns that into output and an exit status.

import ScenarioLanguage

/// A command's typed options as they are before any option is read: the defaults.
protocol CommandOptions {
    init()
}

/// The options of a command that has none (`--version`, `help`).
struct NoOptions: CommandOptions {}

/// Why an option's reader refused a value.
enum OptionValueError: Error, Equatable {
    /// The value is of the option's form but wrong: `message` is the whole line the user reads.
    case invalid(String)
    /// The value is not of the option's form at all (`--attribute` without `NAME=`): refused as
    /// a missing one is, `NAME needs …` and the help.
    case malformed

    /// A refused flow or number of seconds (`--flow must be terminate or acknowledge`).
    init(_ error: PolicyWordError) {
        self = .invalid(error.message)
    }
}

/// One option of a command: one row of its table.
struct OptionSpec<Options>: Sendable {
    /// What a second occurrence of the option does.
    enum Repetition: Sendable {
        /// The last occurrence counts; the earlier ones are not read, so not checked either. This
        /// is what the tool always did (its options were a dictionary); a repeated single option
        /// is not refused.
        case lastWins
        /// Every occurrence counts, read and checked in the order given. These are taken out of
        /// the words first, wherever they stand, even where another option's value would be:
        /// `policy` read `--manifest` and `--attribute` that way before there was a table.
        case collects
    }

    /// `--seconds`.
    let name: String
    /// What follows the name in the help (`N`, `terminate|acknowledge`); nil for a flag.
    let value: String?
    /// One or more lines; the help aligns the ones after the first under it.
    let help: String
    let repetition: Repetition
    /// What the refusal of a missing value says the option needs (`--seconds needs a value`).
    let needs: String
    /// Reads one value into the options (a flag gets an empty string); throws to refuse it.
    let read: @Sendable (inout Options, String) throws(OptionValueError) -> Void

    /// The name with its value, as the synopsis and the options table write it.
    var label: String { value.map { "\(name) \($0)" } ?? name }

    /// A flag: `--echo`. `set` records that it was given.
    static func flag(_ name: String, _ help: String, _ set: @escaping @Sendable (inout Options) -> Void) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help, repetition: .lastWins, needs: "a value") { options, _ in set(&options) }
    }

    /// An option whose value is taken as written (a path, a name, a value the command checks
    /// itself later): `--record FILE`.
    static func text(_ name: String, _ value: String, _ help: String, _ store: @escaping @Sendable (inout Options, String) -> Void) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, repetition: .lastWins, needs: "a value") { options, text in store(&options, text) }
    }

    /// An option whose value `read` converts and checks: `--seconds N`. Values are read after
    /// every word has been seen and the command's words are counted, in the table's order.
    static func checked(
        _ name: String, _ value: String, _ help: String,
        _ read: @escaping @Sendable (inout Options, String) throws(OptionValueError) -> Void
    ) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, repetition: .lastWins, needs: "a value", read: read)
    }

    /// An option that may be given many times: `--manifest FILE`. `needs` is what its missing
    /// value's refusal says (`a FILE`).
    static func repeated(
        _ name: String, _ value: String, needs: String, _ help: String,
        _ read: @escaping @Sendable (inout Options, String) throws(OptionValueError) -> Void
    ) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, repetition: .collects, needs: needs, read: read)
    }
}

/// A command's options, and how many other words (operands) it takes.
struct OptionTable<Options: CommandOptions>: Sendable {
    /// The words besides the options that the command takes, and what it says otherwise.
    enum Words: Sendable {
        /// None: `complaint` (`demo takes no arguments besides its options`) and the help.
        case none(String)
        /// Exactly one (a FILE): `complaint` and the help.
        case one(String)
        /// Any number; the command counts them itself (`policy ACTION …`).
        case any
    }

    /// What the words asked for.
    enum Parsed {
        /// `--help` or `-h` was among them, wherever it stood: print the help, nothing else.
        case help
        /// The options read, and the other words in their order.
        case options(Options, words: [String])
    }

    /// Why the words were refused: `message` (one line, naming the option) and whether the help
    /// follows it.
    struct Failure: Error, Equatable {
        let message: String
        let showsHelp: Bool
    }

    let words: Words
    let specs: [OptionSpec<Options>]

    init(words: Words, _ specs: [OptionSpec<Options>]) {
        self.words = words
        self.specs = specs
    }

    /// Reads `arguments`, in the tool's fixed order: the repeatable options (each checked as it is
    /// read), then `--help` anywhere, then every other word (an unknown option or a missing value
    /// is refused here), then the count of the other words, then each single option's value in
    /// the table's order. The first refusal wins, so which one a line with several mistakes gets
    /// does not depend on the order its words were typed in, except among repeatable options.
    func parse(_ arguments: some Sequence<String>) throws(Failure) -> Parsed {
        var options = Options()
        var rest: [String] = []
        var all = arguments.makeIterator()
        while let word = all.next() {
            guard let spec = specs.first(where: { $0.name == word && $0.repetition == .collects }) else {
                rest.append(word)
                continue
            }
            guard let value = all.next() else { throw missing(spec) }
            try read(spec, value, into: &options)
        }
        if rest.contains("--help") || rest.contains("-h") { return .help }

        var given: [String: String] = [:]
        var others: [String] = []
        var iterator = rest.makeIterator()
        while let word = iterator.next() {
            if let spec = specs.first(where: { $0.name == word && $0.repetition == .lastWins }) {
                if spec.value == nil {
                    given[word] = ""
                } else {
                    guard let value = iterator.next() else { throw missing(spec) }
                    given[word] = value
                }
            } else if word.hasPrefix("--") {
                let hint = Suggestions.hint(for: word, in: specs.map(\.name).sorted() + ["--help"])
                throw Failure(message: "unknown option \(PolicyFiles.clipped(word))\(hint)", showsHelp: true)
            } else {
                others.append(word)
            }
        }

        switch words {
        case .none(let complaint) where !others.isEmpty, .one(let complaint) where others.count != 1:
            throw Failure(message: complaint, showsHelp: true)
        case .none, .one, .any:
            break
        }

        for spec in specs where spec.repetition == .lastWins {
            guard let value = given[spec.name] else { continue }
            try read(spec, value, into: &options)
        }
        return .options(options, words: others)
    }

    private func read(_ spec: OptionSpec<Options>, _ value: String, into options: inout Options) throws(Failure) {
        do throws(OptionValueError) {
            try spec.read(&options, value)
        } catch {
            switch error {
            case .malformed: throw missing(spec)
            case .invalid(let message): throw Failure(message: message, showsHelp: false)
            }
        }
    }

    private func missing(_ spec: OptionSpec<Options>) -> Failure {
        Failure(message: "\(spec.name) needs \(spec.needs)", showsHelp: true)
    }
}

extension OptionTable.Parsed: Equatable where Options: Equatable {}
