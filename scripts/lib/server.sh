# Shared by the scripts (source it): start a server on loopback and learn its port from its own
# log line, so no script needs a fixed port (two runs, or CI next to a developer, never clash).
#
#   start_server NAME LOG COMMAND...
#     Runs COMMAND in the background with stdout and stderr in LOG, waits (at most 30 s) for
#     its "listening on 127.0.0.1:PORT" line and sets NAME_pid, NAME_port and NAME_base
#     (http://127.0.0.1:PORT). Pass `--port 0` for a free port, or a fixed one to restart a
#     server where a balancer expects it. The service logs that line under the target
#     `sudoku_service::startup`, which is switched on here whatever RUST_LOG says (default
#     warn, so request logs stay off in benchmarks).
#   stop_server NAME
#     SIGTERM, then waits; the exit code is in NAME_exit.
#   wait_until SECONDS COMMAND...
#     Runs COMMAND every 20 ms until it succeeds; fails after SECONDS. For conditions, not
#     sleeps.
#   free_port
#     A loopback port that was free a moment ago, for programs that cannot take port 0.

start_server() {
  local name=$1 log=$2 port=""
  shift 2
  # Emptied here, not only by the redirection below: that happens in the background, and a
  # log reused from an earlier server must not be read for its port meanwhile.
  : >"$log"
  RUST_LOG="${RUST_LOG:-warn},sudoku_service::startup=info" "$@" >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 1500); do
    port=$(grep -o 'listening on 127\.0\.0\.1:[0-9]*' "$log" 2>/dev/null | head -n 1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  if [ -z "$port" ]; then
    echo "server $name did not start:"
    cat "$log"
    kill "$pid" 2>/dev/null || true
    return 1
  fi
  printf -v "${name}_pid" '%s' "$pid"
  printf -v "${name}_port" '%s' "$port"
  printf -v "${name}_base" 'http://127.0.0.1:%s' "$port"
}

stop_server() {
  local name=$1 pid_var="${1}_pid" code=0
  local pid=${!pid_var:-}
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || code=$?
  fi
  printf -v "${name}_exit" '%s' "$code"
  printf -v "${name}_pid" '%s' ""
}

wait_until() {
  local seconds=$1
  shift
  local end=$((SECONDS + seconds))
  until "$@"; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 0.02
  done
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
