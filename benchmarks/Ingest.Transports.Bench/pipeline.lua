-- HTTP/1.1 pipelining for wrk: each "request" is <depth> copies of the request (TechEmpower's plaintext test).
-- Usage: wrk ... -s pipeline.lua <url> -- <depth>
init = function(args)
  local depth = tonumber(args[1]) or 16
  local requests = {}
  for i = 1, depth do
    requests[i] = wrk.format()
  end
  pipelined = table.concat(requests)
end

request = function()
  return pipelined
end
