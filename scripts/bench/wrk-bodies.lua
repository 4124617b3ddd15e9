-- wrk script: POSTs JSON bodies read from a file (one body per line), round-robin, and prints
-- one machine-readable summary line plus a status histogram at the end (and how many 503s
-- were not the pool's `overloaded` problem, so a drill can tell shedding from failing).
-- usage: wrk -s scripts/bench/wrk-bodies.lua URL -- BODIES_FILE [close]

local bodies = {}
local counter = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local path = args[1]
  for line in io.lines(path) do
    bodies[#bodies + 1] = line
  end
  counter = math.random(#bodies)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  if args[2] == "close" then
    wrk.headers["Connection"] = "close"
  end
  statuses = {}
  missing_retry_after = 0
  other_503 = 0
end

function request()
  counter = counter % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[counter])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 503 and headers["retry-after"] == nil and headers["Retry-After"] == nil then
    missing_retry_after = missing_retry_after + 1
  end
  if status == 503 and not string.find(body or "", "urn:sudoku-service:problem:overloaded", 1, true) then
    other_503 = other_503 + 1
  end
end

function done(summary, latency, requests)
  local totals = {}
  local missing = 0
  local other = 0
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for code, n in pairs(s) do
      totals[code] = (totals[code] or 0) + n
    end
    missing = missing + thread:get("missing_retry_after")
    other = other + thread:get("other_503")
  end
  local codes = {}
  for code, n in pairs(totals) do
    codes[#codes + 1] = string.format("%d=%d", code, n)
  end
  table.sort(codes)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.0f p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f requests=%d statuses=%s "
      .. "missing_retry_after=%d other_503=%d connect_err=%d read_err=%d write_err=%d "
      .. "timeout_err=%d\n",
    summary.requests / secs, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000, summary.requests,
    table.concat(codes, ","), missing, other, e.connect, e.read, e.write, e.timeout))
end
