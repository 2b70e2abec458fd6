package claudecode

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// PowerShell rules (spec §4.1) have the shape of Bash rules, but are
// matched without case, and a command's name is read through PowerShell's
// aliases: PowerShell(Get-ChildItem *) also matches "gci" and "ls". No
// PowerShell parser is at hand here, so the reader is one that fails
// closed: a command it decides is one command of plain words and quoted
// literals, and anything else, a ";", "|", "&", "$", a backtick, a "(",
// a redirect, a script block, is asked about whatever the allow rules
// say, while the deny and ask rules still read its text.

// powerShellAliases are the aliases PowerShell defines for the cmdlets a
// rule is likely to name, lower case, each read as its cmdlet, so a deny
// of Remove-Item reaches "rm", "del" and "ri" alike.
var powerShellAliases = map[string]string{
	"gci": "get-childitem", "ls": "get-childitem", "dir": "get-childitem",
	"gc": "get-content", "cat": "get-content", "type": "get-content",
	"rm": "remove-item", "del": "remove-item", "ri": "remove-item", "erase": "remove-item", "rd": "remove-item", "rmdir": "remove-item",
	"cp": "copy-item", "copy": "copy-item", "cpi": "copy-item",
	"mv": "move-item", "move": "move-item", "mi": "move-item",
	"ren": "rename-item", "rni": "rename-item",
	"ni": "new-item", "gi": "get-item", "si": "set-item", "ii": "invoke-item",
	"sc": "set-content", "ac": "add-content", "clc": "clear-content",
	"cd": "set-location", "sl": "set-location", "chdir": "set-location",
	"pwd": "get-location", "gl": "get-location",
	"echo": "write-output", "write": "write-output",
	"iwr": "invoke-webrequest", "curl": "invoke-webrequest", "wget": "invoke-webrequest",
	"irm": "invoke-restmethod", "iex": "invoke-expression", "icm": "invoke-command",
	"start": "start-process", "saps": "start-process",
	"ps": "get-process", "gps": "get-process", "kill": "stop-process", "spps": "stop-process",
	"sls": "select-string", "gcm": "get-command", "sv": "set-variable", "set": "set-variable",
	"where": "where-object", "?": "where-object", "foreach": "foreach-object", "%": "foreach-object",
}

// powerShellName is a command name as a PowerShell rule compares it: lower
// case, without a module or directory before it or ".exe" after it, an
// alias read as its cmdlet.
func powerShellName(name string) string {
	name = strings.ToLower(name)
	if i := strings.LastIndexAny(name, `\/`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(name, ".exe")
	if cmdlet, ok := powerShellAliases[name]; ok {
		return cmdlet
	}
	return name
}

// translatePowerShell reads a PowerShell rule's command pattern: ":*" at
// its end is " *", the command name is read through the aliases, and case
// is folded. A deny or ask rule is matched against the command's words
// with their quotes removed, so it catches every quoting; an allow rule
// against the command as written, blanks outside quotes folded, so it
// approves no spelling it does not name.
func translatePowerShell(list, spec string) translation {
	if head, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = head + " *"
	}
	spec = strings.ToLower(spec)
	written := one("PowerShell", writtenField+":"+spec)
	if list == Allow {
		return written
	}
	var t translation
	if strings.ContainsAny(spec, `'"`) {
		// As Claude Code matches it, and, below, without its quotes.
		t.rules = written.rules
		if words, why := powerShellWords(spec); why == "" {
			spec = strings.Join(words, " ")
		}
	}
	name, rest, _ := strings.Cut(spec, " ")
	if !strings.Contains(name, "*") {
		name = powerShellName(name)
	}
	spec = strings.TrimSuffix(name+" "+rest, " ")
	head, ok := strings.CutSuffix(spec, " *")
	switch {
	case !ok || strings.Contains(head, "*"):
		t.rules = append(t.rules, agentpolicy.Rule{Tool: "PowerShell", Spec: spec})
	case isParameter("PowerShell", head+":*"):
		// "timeout:*" would read as a parameter rule: the command alone
		// and the command with arguments say the same.
		t.rules = append(t.rules, agentpolicy.Rule{Tool: "PowerShell", Spec: head}, agentpolicy.Rule{Tool: "PowerShell", Spec: head + " *"})
	default:
		t.rules = append(t.rules, agentpolicy.Rule{Tool: "PowerShell", Spec: head + ":*"})
	}
	return t
}

// powerShellSubjects reads a PowerShell call into its subject: its command
// (the words, quotes removed, the name through the aliases, lower case),
// for the deny and ask rules, and the command as written, lower case, for
// the allow rules; and, for the deny and ask rules alone, every piece of
// the line that may be a command ([powerShellPieces]). A command the
// reader cannot read as plain words and quoted literals, or one that runs
// its arguments as code, is unseen: no allow rule approves it.
func powerShellSubjects(args json.RawMessage) ([]agentpolicy.Subject, error) {
	command, ok, err := agentpolicy.Field(args, "command")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("agentpolicy/claudecode: the call names no command")
	}
	written := collapseBlanks(strings.ToLower(strings.TrimSpace(command)))
	words, why := powerShellWords(command)
	text := written
	if why == "" {
		words[0] = powerShellName(words[0])
		text = strings.ToLower(strings.Join(words, " "))
	}
	subject, _ := json.Marshal(map[string]string{"command": text, writtenField: written})
	s := agentpolicy.Subject{Args: subject, Text: command}
	if why == "" && runsArguments[words[0]] {
		why = "runs its arguments as code"
	}
	if why != "" {
		s.Unseen = "the PowerShell command " + why + ", which this reader does not read"
	}
	subjects := []agentpolicy.Subject{s}
	for _, piece := range powerShellPieces(command) {
		piece, _ := json.Marshal(map[string]string{"command": piece})
		subjects = append(subjects, agentpolicy.Subject{Args: piece, Constrain: true})
	}
	return appendParameters(subjects, args, "command")
}

// runsArguments are the commands whose arguments are code: what they run
// is read as pieces ([powerShellPieces]) for the deny and ask rules, and
// no allow rule approves them, as no Bash allow rule approves eval.
var runsArguments = map[string]bool{
	"invoke-expression": true, "invoke-command": true, "start-process": true, "start-job": true,
	"foreach-object": true, "where-object": true, "powershell": true, "pwsh": true, "cmd": true,
	"bash": true, "sh": true, "wsl": true,
}

// powerShellPieces are the commands a line might run, for the deny and
// ask rules: the text between any two characters that may end a command,
// a string or an expression, each read as a command (its name through the
// aliases, lower case). PowerShell runs each statement of
// "Get-ChildItem; rm x" and the command of "& 'rm' x" or "iex 'rm x'",
// so a deny of Remove-Item reaches them; reading more pieces than
// PowerShell runs makes a deny rule reach further, never less. Claude Code
// 2.1.328 reads a quoted literal so too when it cannot parse the line: it
// denies "Write-Output 'rm x.txt'" under a deny of Remove-Item (recorded:
// powershell/*).
func powerShellPieces(command string) []string {
	var pieces []string
	for _, piece := range strings.FieldsFunc(command, func(r rune) bool {
		return strings.ContainsRune(";|&\n\r(){}'\"`$@<>,", r) || r >= 0x80
	}) {
		words := strings.Fields(piece)
		if len(words) == 0 {
			continue
		}
		words[0] = powerShellName(words[0])
		pieces = append(pieces, strings.ToLower(strings.Join(words, " ")))
	}
	return pieces
}

// powerShellPlain are the characters a word outside quotes may hold: none
// that starts a variable, an expression, a script block, a redirect, a
// pipeline or another statement.
const powerShellPlain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./\\:=+,*?~"

// powerShellWords splits a command into its words when it is plain words
// and quoted literals separated by spaces and tabs, and otherwise says
// what it holds. A single-quoted literal is its text; a double-quoted one
// is its text when it holds no "$" or backtick, which PowerShell would
// expand. A quote must begin a word and end it, the name must be plain,
// and every character must be ASCII, since PowerShell reads typographic
// quotes and dashes as quotes and dashes.
func powerShellWords(command string) ([]string, string) {
	var words []string
	i := 0
	for i < len(command) {
		c := command[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c >= 0x80:
			return nil, "holds a character beyond ASCII"
		case c == '\'' || c == '"':
			if len(words) == 0 {
				return nil, "begins with a quoted literal"
			}
			end := strings.IndexByte(command[i+1:], c)
			if end < 0 {
				return nil, "leaves a quote open"
			}
			body := command[i+1 : i+1+end]
			if c == '"' && strings.ContainsAny(body, "$`") {
				return nil, "expands a variable or an escape inside double quotes"
			}
			if strings.ContainsFunc(body, func(r rune) bool { return r < ' ' || r >= 0x7f }) {
				return nil, "holds a control character or one beyond ASCII inside quotes"
			}
			i += end + 2
			if i < len(command) && command[i] != ' ' && command[i] != '\t' {
				return nil, "joins a quoted literal to more text"
			}
			words = append(words, body)
			continue
		}
		end := i
		for end < len(command) && strings.IndexByte(powerShellPlain, command[end]) >= 0 {
			end++
		}
		if end == i || end < len(command) && command[end] != ' ' && command[end] != '\t' {
			bad := command[end]
			if end == i {
				bad = c
			}
			return nil, "holds " + quoteByte(bad)
		}
		words = append(words, command[i:end])
		i = end
	}
	if len(words) == 0 {
		return nil, "is empty"
	}
	return words, ""
}

// quoteByte names a character for a reason.
func quoteByte(c byte) string {
	switch c {
	case '\n', '\r':
		return "a line break"
	case '`':
		return "a backtick"
	}
	if c < ' ' || c >= 0x7f {
		return "a control character"
	}
	return `"` + string(c) + `"`
}
