-- wrk script: replays a plan of requests round-robin, with auth headers, and prints
-- one RESULT line of JSON at the end (requests/s, latency percentiles, non-2xx count).
--
-- usage: wrk -s mix.lua URL -- PLAN_FILE
-- PLAN_FILE lines:  H <tab> Name <tab> Value          a header sent with every request
--                   R <tab> METHOD <tab> PATH [<tab> BODY]
-- In PATH and BODY, {new} stands for the id of an item this thread created earlier
-- (from the response to a POST /v1/items), so likes never hit the same item twice;
-- {last} stands for the item this thread created most recently, and is not used up
-- (read it back, comment on it, rename it). Until the thread has made one, a step
-- naming either is replaced by the plan's first step (which makes one).

local headers, plan, created = {}, {}, {}
local counter, captures, last = 0, false, nil

function init(args)
  for line in io.lines(args[1]) do
    local fields = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do fields[#fields + 1] = field end
    if fields[1] == "H" then
      headers[fields[2]] = fields[3]
    elseif fields[1] == "R" then
      local body = (fields[4] or "") ~= "" and fields[4] or nil
      plan[#plan + 1] = { method = fields[2], path = fields[3], body = body }
      local text = fields[3] .. (body or "")
      if text:find("{new}", 1, true) or text:find("{last}", 1, true) then captures = true end
    end
  end
  counter = math.random(#plan) - 1
  if not captures then response = nil end
end

function request()
  counter = counter + 1
  local step = plan[(counter - 1) % #plan + 1]
  local path, body = step.path, step.body
  local text = path .. (body or "")
  local new, recent = text:find("{new}", 1, true), text:find("{last}", 1, true)
  if new or recent then
    local id = last
    if new then id = table.remove(created) end
    if id == nil then step = plan[1]; path, body = step.path, step.body  -- nothing made yet: make one
    else
      local mark = new and "{new}" or "{last}"
      path = path:gsub(mark, id)
      if body then body = body:gsub(mark, id) end
    end
  end
  return wrk.format(step.method, path, headers, body)
end

function response(status, _, body)
  if status == 201 then
    -- an item (not a comment or a like): the views write id, then collection_id
    local id = body:match('^{"id":%s*(%d+),%s*"collection_id"')
    if id then
      last = id
      if #created < 10000 then created[#created + 1] = id end
    end
  end
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, e.status, e.connect + e.read + e.write + e.timeout))
end
