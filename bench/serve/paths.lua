-- wrk script: requests the paths of a file (one per line, given after `--`) in turn, each
-- connection starting at its own place, and counts answers that are not 200 as errors.
local paths = {}
local counter = 0
local bad = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  counter = math.random(#paths)
end

function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end

function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
