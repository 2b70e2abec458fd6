package shell

import "testing"

// perlOptionCases hold perl's -l and -0 to perlrun: each takes only the
// octal digits joined to it, and the cluster goes on, to a -M that loads
// a module or an -e that is the program.
var perlOptionCases = []splitCase{
	{"perl", "perl -l0Mx x.pl", []want{hidden("perl -l0Mx x.pl", "perl -l0Mx x.pl", "perl -M loads code named on the command line, which the splitter does not read"), {tool: "read", value: "0", text: "-l0Mx"}, {tool: "read", value: "x", text: "-l0Mx"}, read("x.pl")}},
	{"perl", "perl -l0 x.pl", []want{hidden("perl -l0 x.pl", "perl -l0 x.pl", "perl runs the program in x.pl, which no rule reads"), {tool: "read", value: "0", text: "-l0"}, read("x.pl")}},
	{"perl", "perl -l0e 'print 1'", []want{hidden("perl -l0e print 1", "perl -l0e 'print 1'", "perl -e runs a program given inline, which the splitter does not read"), {tool: "read", value: "0", text: "-l0e"}}},
	{"perl", "perl -0777ne 1 .env", []want{hidden("perl -0777ne 1 .env", "perl -0777ne 1 .env", "perl -e runs a program given inline, which the splitter does not read"), {tool: "read", value: "777", text: "-0777ne"}, read(".env")}},
	{"perl", "perl -l012i.bak -e 1 x", []want{hidden("perl -l012i.bak -e 1 x", "perl -l012i.bak -e 1 x", "perl -e runs a program given inline, which the splitter does not read"), {tool: "read", value: "012", text: "-l012i.bak"}, {tool: "read", value: ".bak", text: "-l012i.bak"}, read("x")}},
	{"perl", "perl -li.bak -e 1 x", []want{hidden("perl -li.bak -e 1 x", "perl -li.bak -e 1 x", "perl -e runs a program given inline, which the splitter does not read"), {tool: "read", value: ".bak", text: "-li.bak"}, read("x")}},
}

func TestPerlOptions(t *testing.T) {
	checkCases(t, perlOptionCases)
}
