package shell

import "strings"

// dd reads its operands as KEY=VALUE: if= is a file it reads and of= one
// it writes; an operand it does not know asks.

// ddKeys are dd's operands, with the effect of the file each names.
var ddKeys = map[string]effect{
	"if":     readsArg,
	"of":     writesArg,
	"bs":     inert,
	"cbs":    inert,
	"conv":   inert,
	"count":  inert,
	"ibs":    inert,
	"iflag":  inert,
	"obs":    inert,
	"oflag":  inert,
	"seek":   inert,
	"skip":   inert,
	"status": inert,
	"oseek":  inert,
	"iseek":  inert,
}

// ddEffects reads dd's command line.
func ddEffects(args []word) effects {
	var e effects
	for _, a := range args {
		key, value, ok := strings.Cut(a.value, "=")
		effect, known := ddKeys[key]
		switch {
		case a.value == "--help" || a.value == "--version":
		case !a.literal && !ok:
			e.unseen = firstOf(e.unseen, "the word "+a.value+" may be an operand of dd, known only when it runs")
		case !ok || !known:
			e.unseen = firstOf(e.unseen, "dd "+a.value+" is not an operand the splitter knows")
		case effect == readsArg || effect == writesArg:
			file := a
			file.value = value
			if effect == readsArg {
				e.reads = append(e.reads, file)
			} else {
				e.writes = append(e.writes, file)
			}
		}
	}
	return e
}
