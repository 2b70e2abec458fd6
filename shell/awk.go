package shell

import "strings"

// awkEffects reads awk, a reader a policy may allow whose program can run
// a command: system(), a pipe to or from a command, or a library gawk
// loads. The program is not parsed; one that names system or holds a "|"
// anywhere is said to run a command, which may ask about a harmless
// regular expression such as /a|b/ but never misses a pipe.
func awkEffects(base string, args []word) effects {
	var program *word
	for i := 0; i < len(args); i++ {
		v := args[i].value
		switch {
		case v == "--":
			if i+1 < len(args) && program == nil {
				program = &args[i+1]
			}
			i = len(args)
		case v == "-f" || v == "--file" || strings.HasPrefix(v, "--file=") || v == "-E" || v == "--exec" ||
			strings.HasPrefix(v, "-f") && len(v) > 2:
			return effects{unseen: base + " -f reads a program that may run a command"}
		case v == "-l" || v == "--load" || strings.HasPrefix(v, "--load="):
			return effects{unseen: base + " -l loads a library"}
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				if why := awkProgram(base, args[i+1]); why != "" {
					return effects{unseen: why}
				}
				program = &word{literal: true}
			}
			i++
		case v == "-v" || v == "-F" || v == "--assign" || v == "--field-separator":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		case program == nil:
			program = &args[i]
		}
	}
	if program == nil {
		return effects{}
	}
	return effects{unseen: awkProgram(base, *program)}
}

// awkProgram is why an awk program runs a command, "" when it does not.
func awkProgram(base string, program word) string {
	switch {
	case !program.literal:
		return base + " runs a program made when it runs"
	case strings.Contains(program.value, "system"), strings.Contains(program.value, "|"):
		return base + "'s program may run a command"
	}
	return ""
}
