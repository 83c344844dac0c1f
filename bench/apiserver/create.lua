-- wrk script: POST ConfigMaps with unique names (one counter per wrk thread).
local counter = 0
local thread_id = 0
setup = function(thread)
  thread:set("thread_id", thread_id)
  thread_id = thread_id + 1
end
request = function()
  counter = counter + 1
  local body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wrk-' .. thread_id .. '-' .. counter .. '","labels":{"bench":"yes"}},"data":{"i":"' .. counter .. '"}}'
  -- Headers given to wrk.format replace those of -H, so carry them over (the Authorization token).
  local headers = { ["Content-Type"] = "application/json" }
  for k, v in pairs(wrk.headers) do headers[k] = v end
  return wrk.format("POST", "/api/v1/namespaces/default/configmaps", headers, body)
end
