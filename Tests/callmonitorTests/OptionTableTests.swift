// The option table every command declares (Sources/callmonitor/OptionTable.swift), read directly:
// an unknown option, a missing value, a repeated option and a refused value, each a clear line
// that names the option and never echoes a huge word back; the order in which a line with several
// mistakes is judged; and the real commands' tables, whose refusals the tool prints.

import Testing
import hnb
@testable import hnbPolicy
@testable import callmonitor

@Suite("callmonitor option table")
struct OptionTableTests {
    typealias Table = OptionTable<SampleOptions>

    /// The refusal `arguments` get from `table`, or nil when they are accepted.
    static func refusal<Options>(_ table: OptionTable<Options>, _ arguments: [String]) -> OptionTable<Options>.Failure? {
        do throws(OptionTable<Options>.Failure) {
            _ = try table.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test("Options and words are read into the typed options; the words keep their order")
    func accepted() throws {
        let parsed = try SampleOptions.table.parse(["--count", "3", "--verbose", "--output", "o.txt", "--tag", "a=1"])
        #expect(parsed == .options(SampleOptions(count: 3, verbose: true, output: "o.txt", tags: ["a=1"]), words: []))
        let anyWords = OptionTable<SampleOptions>(words: .any, SampleOptions.table.specs)
        #expect(try anyWords.parse(["b", "--verbose", "a", "-"]) == .options(SampleOptions(verbose: true), words: ["b", "a", "-"]))
        #expect(try SampleOptions.table.parse([]) == .options(SampleOptions(), words: []))
    }

    @Test("An unknown option is refused by name, with the nearest option when it looks like a typo, and the help")
    func unknownOption() {
        #expect(Self.refusal(SampleOptions.table, ["--colour"]) == Table.Failure(message: "unknown option --colour", showsHelp: true))
        #expect(Self.refusal(SampleOptions.table, ["--verbsoe"]) == Table.Failure(message: "unknown option --verbsoe: did you mean --verbose?", showsHelp: true))
        #expect(Self.refusal(SampleOptions.table, ["--hepl"]) == Table.Failure(message: "unknown option --hepl: did you mean --help?", showsHelp: true))
        // A single dash is not an option: `-` is standard input, and `-x` a word.
        #expect(Self.refusal(SampleOptions.table, ["-x"]) == Table.Failure(message: "sample takes no arguments besides its options", showsHelp: true))
    }

    @Test("A huge unknown option is named by its first 40 characters, never echoed whole")
    func hugeUnknownOption() {
        let refusal = Self.refusal(SampleOptions.table, ["--" + hugeWord])
        #expect(refusal == Table.Failure(message: "unknown option --" + String(repeating: "x", count: 38) + "…", showsHelp: true))
    }

    @Test("An option without its value is refused by name with what it needs, and the help", arguments: [
        (["--count"], "--count needs a value"),
        (["--verbose", "--output"], "--output needs a value"),
        (["--tag"], "--tag needs NAME=VALUE"),
        // A malformed value of a repeatable option is refused as a missing one.
        (["--tag", "=1"], "--tag needs NAME=VALUE"),
        (["--tag", "a"], "--tag needs NAME=VALUE"),
    ])
    func missingValue(arguments: [String], message: String) {
        #expect(Self.refusal(SampleOptions.table, arguments) == Table.Failure(message: message, showsHelp: true))
    }

    @Test("A refused value is the reader's one line, naming the option, without the help")
    func refusedValue() {
        #expect(Self.refusal(SampleOptions.table, ["--count", "0"]) == Table.Failure(message: "--count must be a whole number from 1 to 9", showsHelp: false))
        #expect(Self.refusal(SampleOptions.table, ["--count", hugeWord]) == Table.Failure(message: "--count must be a whole number from 1 to 9", showsHelp: false))
    }

    @Test("A repeated single option: the last one counts and only it is checked; a repeatable one keeps every value in order")
    func repeatedOption() throws {
        #expect(try SampleOptions.table.parse(["--count", "0", "--count", "4"]) == .options(SampleOptions(count: 4), words: []))
        #expect(Self.refusal(SampleOptions.table, ["--count", "4", "--count", "0"]) == Table.Failure(message: "--count must be a whole number from 1 to 9", showsHelp: false))
        #expect(try SampleOptions.table.parse(["--output", "a", "--verbose", "--output", "b", "--verbose"])
            == .options(SampleOptions(verbose: true, output: "b"), words: []))
        #expect(try SampleOptions.table.parse(["--tag", "b=2", "--count", "2", "--tag", "a=1", "--tag", "b=3"])
            == .options(SampleOptions(count: 2, tags: ["b=2", "a=1", "b=3"]), words: []))
    }

    @Test("A value is the next word whatever it looks like; a repeatable option is taken out first, even from another's value")
    func valuesTakeTheNextWord() throws {
        #expect(try SampleOptions.table.parse(["--output", "--verbose"]) == .options(SampleOptions(output: "--verbose"), words: []))
        #expect(Self.refusal(SampleOptions.table, ["--output", "--tag", "a=1"]) == Table.Failure(message: "--output needs a value", showsHelp: true))
    }

    @Test("--help anywhere wins over any mistake but a repeatable option's, which is read first", arguments: [
        ["--help"], ["-h"], ["--colour", "--help"], ["--count", "0", "-h"], ["extra", "--help"], ["--count", "--help"], ["--output", "--help"],
    ])
    func help(arguments: [String]) throws {
        #expect(try SampleOptions.table.parse(arguments) == .help)
    }

    @Test("A repeatable option's mistake is found before --help")
    func repeatableBeforeHelp() {
        #expect(Self.refusal(SampleOptions.table, ["--help", "--tag", "a"]) == Table.Failure(message: "--tag needs NAME=VALUE", showsHelp: true))
    }

    @Test("Several mistakes: the words' shape first, then their count, then the values in the table's order, whatever the line's order", arguments: [
        (["--count", "0", "--colour"], "unknown option --colour"),
        (["--count", "0", "--output"], "--output needs a value"),
        (["extra", "--count", "0"], "sample takes no arguments besides its options"),
        (["--count", "0", "--tag", "x"], "--tag needs NAME=VALUE"),
    ])
    func order(arguments: [String], message: String) {
        #expect(Self.refusal(SampleOptions.table, arguments)?.message == message)
    }

    @Test("Words: none, exactly one, or any number, each refusal with the command's own line and the help")
    func words() throws {
        let one = OptionTable<SampleOptions>(words: .one("sample takes one FILE"), SampleOptions.table.specs)
        #expect(Self.refusal(one, []) == OptionTable<SampleOptions>.Failure(message: "sample takes one FILE", showsHelp: true))
        #expect(Self.refusal(one, ["a", "b"]) == OptionTable<SampleOptions>.Failure(message: "sample takes one FILE", showsHelp: true))
        #expect(try one.parse(["--verbose", "a"]) == .options(SampleOptions(verbose: true), words: ["a"]))
        #expect(Self.refusal(SampleOptions.table, ["a"]) == Table.Failure(message: "sample takes no arguments besides its options", showsHelp: true))
    }
}

/// A table with one option of every kind, so the parser is tested apart from any command.
struct SampleOptions: CommandOptions, Equatable {
    var count = 1
    var verbose = false
    var output: String?
    var tags: [String] = []

    static let table = OptionTable<SampleOptions>(words: .none("sample takes no arguments besides its options"), [
        .checked("--count", "N", "how many, 1 to 9") { options, word throws(OptionValueError) in
            guard let count = Int(word), (1...9).contains(count) else { throw .invalid("--count must be a whole number from 1 to 9") }
            options.count = count
        },
        .flag("--verbose", "say more") { $0.verbose = true },
        .text("--output", "FILE", "where to write") { $0.output = $1 },
        .repeated("--tag", "NAME=VALUE", needs: "NAME=VALUE", "a tag (repeatable)") { options, pair throws(OptionValueError) in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { throw .malformed }
            options.tags.append(pair)
        },
    ])
}

/// A word far longer than any option or value a person types: an argument may be 128 KiB on Linux.
let hugeWord = String(repeating: "x", count: 100_000)

extension CommandLineTests {
    @Suite("callmonitor option table: through the tool")
    struct OptionRefusalTests {
        @Test("A huge unknown option or language is one short line on stderr, exit 2, nothing on stdout")
        func hugeWords() async throws {
            let option = try await runTool(["simulate", "-", "--" + hugeWord], input: "0 wait\n")
            #expect(option.status == 2)
            #expect(option.stdout == "")
            #expect(option.stderr.hasPrefix("callmonitor: unknown option --\(String(repeating: "x", count: 38))…\nusage: callmonitor simulate "))
            #expect(option.stderr.utf8.count < 10_000)
            let language = try await runTool(["demo", "--language", hugeWord])
            #expect(language.status == 2)
            #expect(language.stdout == "")
            #expect(language.stderr == "callmonitor: language '\(String(repeating: "x", count: 40))…' is not available; available: \(Languages.available.joined(separator: ", "))\n")
        }
    }
}
