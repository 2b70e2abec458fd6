package shell

import "testing"

// arithCases are commands that evaluate a value as arithmetic, each
// attack beside a harmless twin. Bash runs them with v, x, i and n in the
// environment set to "a[$(touch pwned)]": an attack reads one of them and
// runs touch, and must be unseen; a twin sets what it reads to a literal
// first, runs nothing, and must not be.
var arithCases = []pwnedCase{
	{"echo $((v))", true}, {"v=5; echo $((v))", false},
	{"echo $(( $v + 1 ))", true}, {"v=5; echo $(( $v + 1 ))", false},
	{"echo $((v)); v=5", true}, {"v=5; echo $((v)); v=6", false},
	{"(( v ))", true}, {"v=1; (( v ))", false},
	{"let n=v+1", true}, {"v=2; let n=v+1", false},
	{"for ((i=v; i<3; i++)); do :; done", true}, {"for ((i=0; i<3; i++)); do :; done", false},
	{"b=(1 2); echo ${b[v]}", true}, {"b=(1 2); echo ${b[1]} ${b[@]}", false},
	{"s=abc; echo ${s:v}", true}, {"s=abc; echo ${s:1:1}", false},
	{"echo ${!v}", true}, {"v=HOME; echo ${!v}", false},
	{"[[ $v -eq 1 ]]", true}, {"v=1; [[ $v -eq 1 ]]", false},
	{"[[ v -gt 1 ]]", true}, {"[[ 2 -gt 1 ]]", false},
	{"[[ -v b[v] ]]", true}, {"[[ -v b[0] ]]", false},
	{"declare -i n; n=$v", true}, {"declare -i n; n=5", false},
	{"declare -i n=$v", true}, {"declare -i n=5", false},
	{"b[v]=1", true}, {"b[0]=1", false},
	{"a=(); a+=([v]=1)", true}, {"a=(); a+=([0]=1)", false},
	{"printf -v 'b[v]' x", true}, {"printf -v 'b[0]' x", false},
	{"declare 'b[v]=1'", true}, {"declare 'b[1]=1'", false},
	{"echo $[v]", true}, {"echo $[1]", false},
	{"echo $(( $(printf %s \"$x\") ))", true}, {"echo $(( 1 + 2 ))", false},
	{"v=5; read v <<< \"$x\"; echo $((v))", true}, {"v=5; read w <<< \"$x\"; echo $((v))", false},
	{"v=5; printf -v v %s \"$x\"; echo $((v))", true}, {"v=5; printf -v w %s \"$x\"; echo $((v))", false},
	{"v=5; printf -vv %s \"$x\"; echo $((v))", true}, {"v=5; printf -vw %s \"$x\"; echo $((v))", false},
	{"v=5; eval 'read v <<< \"$x\"'; echo $((v))", true}, {"v=5; eval 'read w <<< \"$x\"'; echo $((v))", false},
	{"v=$x; echo $((v))", true}, {"v=7; echo $((v))", false},
	{"for v in 1 \"$x\"; do echo $((v)); done", true}, {"for v in 1 2; do echo $((v)); done", false},
	{"declare -n r=v; r=$x; echo $((v))", true}, {"echo ${#v} $# $((RANDOM % 2))", false},
	{"v=$((x)); echo $((v))", true}, {"v=0; v=$((v+1)); w=\"$((v*2))\"; echo $((w))", false},
	{"case 1 in $((v))) ;; esac", true}, {"v=0x1f; case 1 in $((v+2#1))) ;; esac", false},
}

func TestArithmetic(t *testing.T) {
	hostile := "a[$(touch pwned)]"
	checkPwned(t, arithCases, "v="+hostile, "x="+hostile, "i="+hostile, "n="+hostile)
}
