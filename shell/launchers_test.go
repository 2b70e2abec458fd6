package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// launcherCases are the programs that run a command given on their
// command line, each attack beside a harmless twin. An attack is never
// allowed, and is denied where deny is set (a deny rule names what it
// runs); its twin is allowed.
//
// Policies: "rm" allows every command and denies Bash(rm:*); "env"
// allows every command and denies Read(.env) and Write(.env); "runner" allows the
// project runners' lines a project would allow (Bash(npx prettier:*),
// Bash(uv run pytest:*), …), denies Bash(rm:*) and asks about the rest;
// "perf" denies writing perf.data and .claude/; "cat" allows npx cat, uv run cat and cat, and reading a.txt alone.
var launcherCases = []struct {
	class, policy, attack, twin string
	deny                        bool
}{
	// Tracers, debuggers, profilers.
	{"tracers", "rm", "strace rm x", "strace -c ls", true},
	{"tracers", "rm", "strace -f -o trace.txt rm x", "strace -f -o trace.txt ls", true},
	{"tracers", "rm", "strace -e trace=file -p 1 rm x", "strace -e trace=file ls", true},
	{"tracers", "rm", "strace -E LD_PRELOAD=x.so ls", "strace -qq ls", false},
	{"tracers", "rm", "ltrace rm x", "ltrace -c ls", true},
	{"tracers", "rm", "valgrind --leak-check=full rm x", "valgrind -q ls", true},
	{"tracers", "rm", "valgrind --tool=../../tmp/x ls", "valgrind --track-origins=yes ls", false},
	{"tracers", "rm", "valgrind --vgdb=yes ls", "valgrind --leak-check=full ls", false},
	{"tracers", "rm", "perf stat rm x", "perf stat ls", true},
	{"tracers", "rm", "perf record -g -o p.data rm x", "perf record -g ls", true},
	{"tracers", "env", "strace -o .env ls", "strace -o trace.txt ls", true},
	{"tracers", "perf", "perf record ls", "perf stat ls", false},
	{"tracers", "perf", "perf record -o .claude/p.data ls", "perf record -o p.data ls", true},
	{"limits", "rm", "screen -L -dm ls", "screen -dm ls", false},

	// Another root, namespace, credentials or service.
	{"roots", "rm", "chroot / rm x", "chroot / ls", true},
	{"roots", "rm", "chroot --userspec=1:1 / rm x", "chroot --userspec=1:1 / ls", true},
	{"roots", "rm", "chroot /", "chroot --version", false},
	{"roots", "env", "chroot / cat .env", "chroot / ls", false},
	{"roots", "rm", "unshare -r rm x", "unshare -r ls", true},
	{"roots", "rm", "unshare -w /tmp ls", "unshare -rn ls", false},
	{"roots", "rm", "unshare -m", "unshare -V", false},
	{"roots", "rm", "nsenter -t 1 -m rm x", "nsenter -t 1 -m ls", true},
	{"roots", "rm", "pkexec rm x", "pkexec ls", true},
	{"roots", "rm", "setpriv --nnp rm x", "setpriv --nnp ls", true},
	{"roots", "rm", "systemd-run --user rm x", "systemd-run --user ls", true},
	{"roots", "rm", "systemd-run -p ExecStartPre=/bin/x ls", "systemd-run --scope ls", false},
	{"roots", "rm", "fakeroot rm x", "fakeroot ls", true},
	{"roots", "rm", "fakeroot -- rm x", "fakeroot -- ls", true},
	{"roots", "rm", "fakeroot -l x.so ls", "fakeroot -u ls", false},
	{"roots", "rm", "proot rm x", "proot -0 ls", true},
	{"roots", "rm", "firejail --quiet rm x", "firejail --quiet ls", true},
	{"roots", "rm", "firejail --profile=x ls", "firejail --noprofile ls", false},

	// Scheduling, limits, sessions.
	{"limits", "rm", "chrt 1 rm x", "chrt 1 ls", true},
	{"limits", "rm", "chrt -f 1 rm x", "chrt -p 1", true},
	{"limits", "rm", "prlimit --nofile=10 rm x", "prlimit --nofile=10 ls", true},
	{"limits", "rm", "numactl -N 0 rm x", "numactl -H", true},
	{"limits", "rm", "cgexec -g cpu:g rm x", "cgexec -g cpu:g ls", true},
	{"limits", "rm", "caffeinate -i rm x", "caffeinate -i ls", true},
	{"limits", "rm", "xvfb-run -a rm x", "xvfb-run -a ls", true},
	{"limits", "rm", "dbus-run-session -- rm x", "dbus-run-session -- ls", true},
	{"limits", "rm", "ssh-agent rm x", "ssh-agent -k", true},
	{"limits", "rm", "entr rm x", "entr ls", true},
	{"limits", "rm", "entr -s 'rm x'", "entr -s 'ls'", true},
	{"limits", "rm", "screen -dm rm x", "screen -dm ls", true},
	{"limits", "rm", "screen -dmS s rm x", "screen -v", true},
	{"limits", "rm", "screen -X stuff 'rm x'", "screen -dmS s ls", false},
	{"limits", "rm", "sg g -c 'rm x'", "sg g -c ls", true},
	{"limits", "rm", "sg - g 'rm x'", "sg g ls", true},
	{"limits", "rm", "newgrp g", "sg g ls", false},
	{"limits", "rm", "eatmydata rm x", "eatmydata ls", true},
	{"limits", "rm", "chronic -e rm x", "chronic -v ls", true},
	{"limits", "rm", "ifne -n rm x", "ifne ls", true},
	{"limits", "rm", "catchsegv rm x", "catchsegv ls", true},
	{"limits", "rm", "faketime '2020-01-01' rm x", "faketime -f '+2d' ls", true},
	{"limits", "rm", "faketime --date-prog x 1 ls", "faketime --version", false},
	{"limits", "rm", "gosu nobody rm x", "gosu nobody ls", true},
	{"limits", "rm", "su-exec nobody rm x", "su-exec nobody ls", true},
	{"limits", "rm", "tini -s -- rm x", "tini -- ls", true},
	{"limits", "rm", "dumb-init -c rm x", "dumb-init ls", true},
	{"limits", "rm", "torsocks -i rm x", "torsocks ls", true},
	{"limits", "rm", "torsocks --shell", "torsocks --version", false},
	{"limits", "rm", "proxychains4 -q rm x", "proxychains4 -q ls", true},
	{"limits", "rm", "sandbox-exec -n no-network rm x", "sandbox-exec -n no-network ls", true},
	{"limits", "rm", "cross-env NODE_ENV=test rm x", "cross-env NODE_ENV=test ls", true},
	{"limits", "rm", "cross-env LD_PRELOAD=x.so ls", "cross-env CI=1 ls", false},

	// Daemons, supervisors, capabilities, another sandbox, multiplexers.
	{"supervisors", "rm", "daemonize /bin/rm x", "daemonize -o out.log /bin/ls", true},
	{"supervisors", "rm", "daemonize -c / /bin/ls", "daemonize -p ls.pid /bin/ls", false},
	{"supervisors", "rm", "daemonize -E LD_PRELOAD=x.so /bin/ls", "daemonize -a -e err.log /bin/ls", false},
	{"supervisors", "env", "daemonize -o .env /bin/ls", "daemonize -o out.log /bin/ls", true},
	{"supervisors", "rm", "chpst -u nobody rm x", "chpst -u nobody ls", true},
	{"supervisors", "rm", "chpst -/ /srv ls", "chpst -m 1000000 ls", false},
	{"supervisors", "rm", "capsh -- -c 'rm x'", "capsh -- -c 'ls'", true},
	{"supervisors", "rm", "capsh --drop=cap_net_raw -- -c 'rm x'", "capsh --print", true},
	{"supervisors", "rm", "capsh --chroot=/ -- -c ls", "capsh --caps=cap_chown+ep -- -c ls", false},
	{"supervisors", "rm", "capsh --", "capsh --drop=cap_net_raw -- -c ls", false},
	{"supervisors", "rm", "flatpak-spawn --host rm x", "flatpak-spawn --host ls", true},
	{"supervisors", "rm", "flatpak-spawn --env=LD_PRELOAD=x.so ls", "flatpak-spawn --clear-env ls", false},
	{"supervisors", "rm", "zellij run -- rm x", "zellij run -- ls", true},
	{"supervisors", "rm", "zellij -s s run -f rm x", "zellij -s s run -f ls", true},
	{"supervisors", "rm", "zellij action write-chars 'rm x'", "zellij ls", true},
	{"supervisors", "rm", "zellij run --cwd /tmp -- ls", "zellij kill-session s", false},
	{"supervisors", "rm", "zellij -l x.kdl", "zellij list-sessions", false},
	{"supervisors", "rm", "zellij", "zellij --version", false},
	{"supervisors", "rm", "byobu new-session 'rm x'", "byobu new-session -d 'ls'", true},
	{"supervisors", "rm", "byobu -X stuff 'rm x'", "byobu ls", false},
	{"supervisors", "rm", "screen -X stuff 'rm x\\n'", "screen -dm ls", true},
	{"supervisors", "rm", "screen -S s -X stuff 'rm x^M'", "screen -S s -dm make", true},
	{"supervisors", "rm", "screen -X stuff 'ls\\n'", "screen -v", false},
	{"supervisors", "rm", "screen -X exec rm x", "screen -X exec ls", true},
	{"supervisors", "rm", "screen -S s -X screen rm -rf .", "screen -S s -X screen make", true},
	{"supervisors", "rm", "screen -X exec '!.' ls", "screen -X exec ls -la", false},
	{"supervisors", "rm", "screen -X quit", "screen -dmS s ls", false},

	// Later, in a server, in parallel.
	{"later", "rm", "at now <<< 'rm x'", "at -l", false},
	{"later", "rm", "at -f jobs now", "at -c 1", false},
	{"later", "rm", "batch <<< 'rm x'", "batch -l", false},
	{"runners", "rm", "bun x rm x", "bun x prettier --check .", true},
	{"runners", "rm", "bun x --bun rm x", "bunx prettier --check .", true},
	{"runners", "rm", "bun exec 'rm x'", "bun exec 'ls -la'", true},
	{"runners", "rm", "bun exec", "bun install", false},
	{"later", "rm", "crontab <<< '* * * * * rm x'", "crontab -l", false},
	{"later", "rm", "echo '@reboot rm x' | crontab -", "crontab -l", false},
	{"later", "rm", "crontab jobs.txt", "crontab -l", false},
	{"later", "rm", "crontab -r", "crontab -l", false},
	{"later", "rm", "crontab -e", "crontab -l", false},
	{"later", "rm", "crontab -u root -l", "crontab -l", false},
	{"later", "env", "crontab .env", "crontab -l", true},
	{"later", "rm", "tmux new-session 'rm x'", "tmux ls", false},
	{"later", "rm", "tmux new -d 'rm x'", "tmux has-session -t s", false},
	{"later", "rm", "tmux ls \\; run-shell 'rm x'", "tmux list-windows -t s", false},
	{"later", "rm", "tmux ls -F '#(rm x)'", "tmux ls -F '#{session_name}'", false},
	{"later", "rm", "tmux send-keys 'rm x' Enter", "tmux kill-session -t s", false},
	{"later", "rm", "tmux -c 'rm x'", "tmux -V", false},
	{"later", "rm", "parallel rm ::: x", "parallel echo ::: x", true},
	{"later", "rm", "parallel -j2 'rm -f' ::: x y", "parallel -k echo ::: a b", true},
	{"later", "rm", "parallel 'echo; rm' ::: x", "parallel 'echo a;' echo ::: x", true},
	{"later", "rm", "parallel 'rm {}' ::: x", "parallel -j4 echo ::: a", false},
	{"later", "rm", "ls | parallel rm", "parallel --version", false},
	{"later", "rm", "parallel rm :::: list", "parallel wc -l ::: a b", false},
	{"later", "env", "parallel cat ::: .env", "parallel cat ::: a.txt", true},
	{"later", "rm", "hyperfine 'rm x'", "hyperfine 'ls'", true},
	{"later", "rm", "hyperfine -w 3 ls 'rm x'", "hyperfine -w 3 ls 'ls -la'", true},
	{"later", "rm", "hyperfine --prepare 'rm x' ls", "hyperfine --prepare 'sync' ls", true},
	{"later", "rm", "hyperfine -c 'rm x' ls", "hyperfine -N -r 5 ls", true},
	{"later", "rm", "hyperfine -L n 1,2 'rm {n}'", "hyperfine --runs 3 'ls -a'", false},
	{"later", "rm", "hyperfine -S 'rm x' ls", "hyperfine --show-output ls", false},
	{"later", "env", "hyperfine --export-json .env ls", "hyperfine --export-json out.json ls", true},
	{"later", "env", "parallel --joblog .env echo ::: a", "parallel --joblog jobs.log echo ::: a", true},
	{"later", "env", "parallel -k cat ::: a.txt .env", "parallel -k cat ::: a.txt b.txt", true},

	// The wrappers that already held, held still.
	{"held", "rm", "time -p rm x", "time -p ls", true},
	{"held", "rm", "command rm x", "command -v rm", true},
	{"held", "rm", "builtin command rm x", "builtin echo rm", true},
	{"held", "rm", "exec -a name rm x", "exec -a name ls", true},
	{"held", "rm", "coproc rm x", "coproc ls", true},
	{"held", "rm", "nohup rm x", "nohup ls", true},
	{"held", "rm", "script -qc 'rm x' /dev/null", "script -qc ls /dev/null", true},
	{"held", "rm", "flock f -c 'rm x'", "flock f -c ls", true},
	{"held", "rm", "watch rm x", "watch ls", true},
	{"held", "rm", "nice -n5 rm x", "nice -n5 make", true},
	{"held", "rm", "gtimeout 5 rm x", "gtimeout 5 ls", true},
	{"held", "rm", "gnice -n5 rm x", "gnohup ls", true},
	{"held", "rm", "gstdbuf -oL rm x", "gtime -p ls", true},

	// Project runners: the runner in full, what it runs as a constraint.
	{"runners", "runner", "npx rm x", "npx prettier --check .", true},
	{"runners", "runner", "npx --yes rm x", "npx prettier --write src", true},
	{"runners", "runner", "npx -c 'rm x'", "npx prettier -l .", true},
	{"runners", "runner", "npx @scope/rm@1.2 x", "npx prettier --check src", true},
	{"runners", "runner", "npx -p rimraf rm x", "npx prettier .", true},
	{"runners", "runner", "npm exec -- rm x", "uv run pytest -q", true},
	{"runners", "runner", "npm x rm x", "uv run pytest tests/x_test.py", true},
	{"runners", "runner", "bunx rm x", "uv run pytest", true},
	{"runners", "runner", "pnpm exec rm x", "pnpm exec eslint .", true},
	{"runners", "runner", "pnpm exec -c 'rm x'", "pnpm exec eslint src", true},
	{"runners", "runner", "npx -w pkg cat ../.env", "npx prettier --check pkg", false},
	{"runners", "runner", "pnpm exec -r cat .env", "pnpm exec eslint lib", false},
	{"runners", "runner", "pnpm dlx rm x", "pnpm exec eslint --fix .", true},
	{"runners", "runner", "yarn exec rm x", "yarn exec jest", true},
	{"runners", "runner", "yarn dlx rm x", "yarn exec jest --ci", true},
	{"runners", "runner", "bundle exec rm x", "bundle exec rake test", true},
	{"runners", "runner", "uv run rm x", "uv run pytest -x", true},
	{"runners", "runner", "uv run --with x rm x", "uv run pytest -k x", true},
	{"runners", "runner", "uvx rm x", "uv run pytest --lf", true},
	{"runners", "runner", "uv tool run rm x", "uv run pytest -v", true},
	{"runners", "runner", "uv -q run rm x", "uv run pytest", true},
	{"runners", "rm", "uv --quiet run rm x", "uv --quiet run pytest", true},
	{"runners", "rm", "uv --directory d run rm x", "uv --directory d run pytest", true},
	{"runners", "rm", "uv --no-cache -v --color never run rm x", "uv --no-cache sync", true},
	{"runners", "rm", "uv --config-file x.toml run rm x", "uv --offline run ls", true},
	{"runners", "rm", "uv --bogus run rm x", "uv --version", true},
	{"runners", "env", "uv --directory d run cat .env", "uv --directory d run ls", false},
	{"runners", "rm", "bundle --verbose exec rm x", "bundle exec rake", true},
	{"runners", "rm", "poetry -q run rm x", "poetry run pytest", true},
	{"runners", "rm", "mise -q exec -- rm x", "mise -q exec -- make", true},
	{"runners", "rm", "mise -C d x -- rm x", "mise -C d ls", true},
	{"runners", "rm", "mise --bogus exec -- rm x", "mise --version", true},
	{"runners", "rm", "pnpm -C d exec rm x", "pnpm exec eslint", true},
	{"runners", "rm", "npm --prefix d exec rm x", "npm exec eslint", true},
	{"runners", "rm", "npm -s exec rm x", "npm --help exec", false},
	{"runners", "runner", "poetry run rm x", "poetry run pytest", true},
	{"runners", "runner", "pipenv run rm x", "poetry run pytest -q", true},
	{"runners", "runner", "pipx run rm x", "poetry run pytest tests", true},
	{"runners", "runner", "conda run -n e rm x", "poetry run pytest -x", true},
	{"runners", "runner", "direnv exec . rm x", "bundle exec rake", true},
	{"runners", "runner", "pyenv exec rm x", "bundle exec rake -T", true},
	{"runners", "runner", "rbenv exec rm x", "bundle exec rake spec", true},
	{"runners", "runner", "asdf exec rm x", "bundle exec rake", true},
	{"runners", "runner", "volta run --node 20 rm x", "bundle exec rake", true},
	{"runners", "runner", "mise exec node@20 -- rm x", "mise exec node@20 -- make", true},
	{"runners", "runner", "mise x -- rm x", "mise x python@3 -- make", true},
	{"runners", "runner", "mise exec -C /tmp -- ls", "mise x -- make", false},
	{"runners", "runner", "mise exec node@20", "mise x -- make", false},
	{"runners", "runner", "nix-shell --run 'rm x'", "nix-shell --run make", true},
	{"runners", "runner", "nix-shell -p hello --command 'rm x'", "nix-shell --run 'make test'", true},
	{"runners", "runner", "nix-shell", "nix-shell --run make", false},
	{"runners", "runner", "nix develop -c rm x", "nix develop -c make", true},
	{"runners", "runner", "nix shell nixpkgs#hello --command rm x", "nix develop --command make test", true},
	{"runners", "runner", "nix develop", "nix develop -c make", false},
	{"runners", "runner", "npx prettier --check . && rm x", "npx prettier --check . && uv run pytest", true},
	{"runners", "prettier", "npx prettier --check .", "prettier --check .", false},
	{"runners", "rm", "pdm run rm x", "pdm run ls", true},
	{"runners", "rm", "pdm run -p d rm x", "pdm run -s ls", false},
	{"runners", "rm", "hatch run rm x", "hatch run ls", true},
	{"runners", "rm", "hatch run test:rm x", "hatch run test:ls", true},
	{"runners", "rm", "hatch -e test run rm x", "hatch build", true},
	{"runners", "rm", "hatch $x rm x", "hatch version", false},
	{"runners", "rm", "rye run rm x", "rye run ls", true},
	{"runners", "rm", "pixi run rm x", "pixi run ls", true},
	{"runners", "rm", "pixi run 'rm x'", "pixi run 'ls -la'", true},
	{"runners", "rm", "pixi run --manifest-path x.toml ls", "pixi run -e dev ls", false},
	{"runners", "rm", "op run -- rm x", "op run -- ls", true},
	{"runners", "rm", "op run --env-file x.env -- ls", "op run --no-masking -- ls", false},
	{"runners", "rm", "doppler run -- rm x", "doppler run -- ls", true},
	{"runners", "rm", "doppler run --command 'rm x'", "doppler run --command 'ls'", true},
	{"runners", "rm", "aws-vault exec p -- rm x", "aws-vault exec p -- ls", true},
	{"runners", "rm", "aws-vault exec p rm x", "aws-vault exec -n p ls", true},
	{"runners", "rm", "aws-vault exec p -d 1h -- ls", "aws-vault exec -d 1h p -- ls", false},
	{"runners", "rm", "aws-vault exec p", "aws-vault exec p -- ls", false},
	{"runners", "rm", "dotenv -- rm x", "dotenv -- ls", true},
	{"runners", "rm", "dotenv -v PAGER=x -- ls", "dotenv -e a.env -- ls", false},
	{"runners", "env", "dotenv -- ls", "dotenv -e a.env -- ls", true},
	{"runners", "rm", "with-contenv rm x", "with-contenv ls", true},
	{"runners", "rm", "npm --prefix d exec rm x", "npm --prefix d exec eslint", true},
	{"runners", "rm", "npm --silent exec rm x", "npm --silent test", true},
	{"runners", "rm", "npm -w pkg exec rm x", "npm -w pkg test", true},
	{"runners", "rm", "npm --userconfig x.rc exec ls", "npm --loglevel silent exec ls", false},
	{"runners", "rm", "pnpm --dir d exec rm x", "pnpm -C d exec eslint", true},
	{"runners", "rm", "pnpm -r exec rm x", "pnpm --silent run build", true},
	{"runners", "rm", "yarn --cwd d exec rm x", "yarn --cwd d exec jest", true},
	{"runners", "rm", "yarn --silent exec rm x", "yarn --silent test", true},
	{"runners", "env", "npm --prefix d exec cat .env", "npm --prefix d exec ls", false},
	{"runners", "cat", "npx cat .env", "npx cat a.txt", false},
	{"runners", "cat", "uv run cat .env", "cat a.txt", false},
	{"runners", "prettier", "uv run prettier --check .", "prettier -l .", false},

	// Sessions: a command run in a tmux or screen session, later by at,
	// as another group, or once for each argument by parallel.
	{"sessions", "rm", "tmux new-session 'rm x'", "tmux new-session -d 'ls'", true},
	{"sessions", "rm", "tmux new -d rm x", "tmux new -d ls -la", true},
	{"sessions", "rm", "tmux new-window 'rm x'", "tmux new-window 'make test'", true},
	{"sessions", "rm", "tmux split-window -h rm x", "tmux splitw -v -l 10 top", true},
	{"sessions", "rm", "tmux respawn-pane -k 'rm x'", "tmux respawnp -k 'ls'", true},
	{"sessions", "rm", "tmux respawnw -k -t s:1 rm -rf .", "tmux respawnw -k -t s:1 make", true},
	{"sessions", "rm", "tmux run-shell 'rm x'", "tmux run-shell 'ls'", true},
	{"sessions", "rm", "tmux run -b -d 5 'rm x'", "tmux run -b 'git status'", true},
	{"sessions", "rm", "tmux if-shell 'rm x' 'display hi'", "tmux has-session -t s", true},
	{"sessions", "rm", "tmux display-popup -E 'rm x'", "tmux display -p '#S'", true},
	{"sessions", "rm", "tmux send-keys 'rm x' Enter", "tmux list-panes", true},
	{"sessions", "rm", "tmux send-keys -t s rm Space x C-m", "tmux capture-pane -p -t s", true},
	{"sessions", "rm", "tmux send -l 'rm x'", "tmux ls", true},
	{"sessions", "rm", "tmux send-keys -t s ls Enter", "tmux ls", false},
	{"sessions", "rm", "tmux new -d -s s \\; send-keys 'rm x' Enter", "tmux ls \\; list-windows", true},
	{"sessions", "rm", "tmux new -d 'ls'\\; neww 'rm x'", "tmux new -d 'ls' \\; neww 'make'", true},
	{"sessions", "rm", "tmux new -d -e PAGER='rm x' git log", "tmux new -d -e LANG=C git log", true},
	{"sessions", "rm", "tmux new -d -e GIT_CONFIG_GLOBAL=x git status", "tmux new -d -e LC_ALL=C git status", false},
	{"sessions", "rm", "tmux -c 'rm x'", "tmux -V", true},
	{"sessions", "rm", "tmux new -d 'ls #(rm x)'", "tmux new -d 'ls'", false},
	{"sessions", "rm", "tmux source-file t.conf", "tmux list-keys", false},
	{"sessions", "rm", "tmux new -d -s s", "tmux kill-session -t s", false},
	{"sessions", "rm", "screen -dm rm x", "screen -dm ls", true},
	{"sessions", "rm", "screen -S s -d -m rm x", "screen -S s -dm make", true},
	{"sessions", "rm", "dtach -n /tmp/s rm x", "dtach -n /tmp/s -Ez make", true},
	{"sessions", "rm", "dtach -A /tmp/s -r winch rm -rf .", "dtach -a /tmp/s", true},
	{"sessions", "rm", "abduco -n s rm x", "abduco -c s make", true},
	{"sessions", "rm", "abduco -n s", "abduco -a s", false},
	{"sessions", "rm", "at now <<< 'rm x'", "at now <<< 'ls'", true},
	{"sessions", "rm", "echo 'rm x' | at now", "echo 'make test' | at now + 1 hour", true},
	{"sessions", "rm", "batch <<< 'rm x'", "batch <<< 'make'", true},
	{"sessions", "rm", "printf 'cd /\\nrm x\\n' | at now", "printf 'ls\\n' | at now", true},
	{"sessions", "rm", "at now <<'EOF'\nrm x\nEOF", "at now <<'EOF'\nls\nEOF", true},
	{"sessions", "rm", "at now <<EOF\nrm $f\nEOF", "at now <<EOF\nls\nEOF", false},
	{"sessions", "rm", "at now <<< 'ls' < job.sh", "at -l", false},
	{"sessions", "rm", "at -f job.sh now", "at -l", false},
	{"sessions", "rm", "cat job.sh | at now", "at -c 3", false},
	{"sessions", "rm", "{ at now; } <<< 'ls'", "at -q a -l", false},
	{"sessions", "rm", "sudo at now <<< 'ls'", "at -d 3", false},
	{"sessions", "rm", "newgrp staff <<< 'rm x'", "id -gn", true},
	{"sessions", "rm", "newgrp staff <<< 'ls'", "groups", false},
	{"sessions", "rm", "sg staff <<< 'rm x'", "sg staff -c 'make'", true},
	{"sessions", "rm", "sg staff", "sg staff 'ls -la'", false},
	{"sessions", "rm", "bash <<< 'rm x'", "bash -c ls", true},
	{"sessions", "rm", "echo 'rm x' | sh", "sh -c 'ls'", true},
	{"sessions", "rm", "bash <<'EOF'\nset -e\nrm -rf build\nEOF", "bash -c 'set -e; make'", true},
	{"sessions", "rm", "bash <<< 'ls'", "bash -ec ls", false},
	{"sessions", "rm", "sudo bash <<< 'rm x'", "sudo ls", true},
	{"sessions", "rm", "env bash <<< 'rm x'", "env ls", true},
	{"sessions", "rm", "nice sh <<< 'rm x'", "nice -n5 ls", true},
	{"sessions", "rm", "sudo -u x env bash <<< 'rm x'", "sudo -u x env ls", true},
	{"sessions", "rm", "nohup bash <<'EOF'\nrm x\nEOF", "nohup ls", true},
	{"sessions", "rm", "sudo bash <<< 'ls'", "sudo -l", false},
	{"sessions", "rm", "xargs bash <<< 'ls'", "xargs echo <<< 'ls'", false},
	{"sessions", "rm", "screen -dm bash <<< 'ls'", "screen -dm ls", false},
	{"sessions", "rm", "bash <<-'EOF'\n\trm x\n\tEOF", "bash -c ls", true},
	{"sessions", "rm", "at now <<-'EOF'\n\trm x\n\tEOF", "at now <<-'EOF'\n\tls\n\tEOF", true},
	{"sessions", "rm", "at now <<-EOF\n\trm x\n\tEOF", "at now <<EOF\nls\nEOF", true},
	{"sessions", "rm", "at now <<-EOF\n\trm $f\n\tEOF", "at now <<-EOF\n\tls\n\tEOF", false},
	{"sessions", "rm", "at now <<'EOF'\nrm x", "at now <<'EOF'\nEOF", false},

	{"sessions", "rm", "parallel 'rm {}' ::: a", "parallel 'echo {}' ::: a", true},
	{"sessions", "rm", "parallel rm {} ::: a", "parallel echo {} ::: a b", true},
	{"sessions", "rm", "parallel rm {.} ::: a.txt", "parallel gzip ::: a.txt", true},
	{"sessions", "rm", "parallel rm {1} {2} ::: a ::: b", "parallel -k echo ::: a b", true},
	{"sessions", "rm", "parallel -X rm ::: -rf /", "parallel -k ls ::: -la /", false},
	{"sessions", "rm", "ls | parallel rm", "parallel --version", true},
	{"sessions", "rm", "parallel {} x ::: rm", "parallel {} ::: ls pwd", true},
	{"sessions", "rm", "parallel '{= $_=q(rm) =} x' ::: a", "parallel -j2 echo ::: a", false},
	{"sessions", "rm", "parallel \"echo '{}'\" ::: \"'; rm x; '\"", "parallel echo ::: \"'; rm x; '\"", false},
	{"sessions", "rm", "parallel 'echo ${}' ::: PATH", "parallel 'echo {}' ::: PATH", false},
}

// TestLaunchers decides every case of launcherCases under its policy.
func TestLaunchers(t *testing.T) {
	engines := map[string]*agentpolicy.Engine{
		"rm":  build(t, agentpolicy.Policy{Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()}),
		"env": build(t, agentpolicy.Policy{Deny: rules(t, "read(.env) write(.env)"), Default: agentpolicy.Allow()}),
		"runner": build(t, agentpolicy.Policy{
			Allow: rules(t, "bash(npx prettier:*) bash(uv run pytest:*) bash(pnpm exec eslint:*) bash(yarn exec jest:*) "+
				"bash(bundle exec rake:*) bash(poetry run pytest:*) bash(nix-shell --run make:*) bash(nix-shell --run 'make test':*) "+
				"bash(mise exec node@20 -- make:*) bash(mise x:*) bash(nix develop -c make:*) bash(nix develop --command make:*)"),
			Deny:    rules(t, "bash(rm:*)"),
			Default: agentpolicy.Ask(),
		}),
		"cat":      build(t, agentpolicy.Policy{Allow: rules(t, "bash(npx cat:*) bash(uv run cat:*) bash(cat:*) read(a.txt)"), Default: agentpolicy.Ask()}),
		"perf":     build(t, agentpolicy.Policy{Deny: rules(t, "write(perf.data) write(.claude/*)"), Default: agentpolicy.Allow()}),
		"prettier": build(t, agentpolicy.Policy{Allow: rules(t, "bash(prettier:*)"), Default: agentpolicy.Ask()}),
	}
	for _, c := range launcherCases {
		e := engines[c.policy]
		switch v := decide(t, e, c.attack, false); {
		case v.Action == agentturn.Allow:
			t.Errorf("%s: %q allowed under %s: %q", c.class, c.attack, c.policy, v.Reason)
		case c.deny && v.Action != agentturn.Block:
			t.Errorf("%s: %q %v under %s, want denied: %q", c.class, c.attack, v.Action, c.policy, v.Reason)
		}
		if v := decide(t, e, c.twin, false); v.Action != agentturn.Allow {
			t.Errorf("%s twin: %q %v under %s, want allowed: %q", c.class, c.twin, v.Action, c.policy, v.Reason)
		}
	}
}

// TestRecipesAreDecidedAsWritten holds the programs that run code no
// rule read, a Makefile's recipe, a package script, a justfile's or a
// Taskfile's, to being decided as written: never read-only, so a policy
// that allows only ls asks, and allowed by a rule that names them.
func TestRecipesAreDecidedAsWritten(t *testing.T) {
	recipes := []string{"make", "make -f x.mk all", "make test", "npm run build", "npm test", "just test", "task build",
		"yarn test", "pnpm run lint", "uv sync", "bundle install", "poetry install"}
	ls := build(t, agentpolicy.Policy{Allow: rules(t, "bash(ls:*)"), Default: agentpolicy.Ask()})
	named := build(t, agentpolicy.Policy{
		Allow: rules(t, "bash(make:*) bash(npm run:*) bash(npm test:*) bash(just:*) bash(task:*) bash(yarn test:*) "+
			"bash(pnpm run:*) bash(uv sync:*) bash(bundle install:*) bash(poetry install:*)"),
		Default: agentpolicy.Ask(),
	})
	for _, c := range recipes {
		if v := decide(t, ls, c, false); v.Action == agentturn.Allow {
			t.Errorf("%q allowed under an allow of ls alone: %q", c, v.Reason)
		}
		if v := decide(t, named, c, false); v.Action != agentturn.Allow {
			t.Errorf("%q %v under a rule naming it, want allowed: %q", c, v.Action, v.Reason)
		}
	}
}
