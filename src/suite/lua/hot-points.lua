-- hot-points: the query shape of the stock select_random_points.lua (all columns of the rows whose k is in
-- an IN-list of --points values), but the values come from the small hot range 1..--hot-rows, so the same
-- few rows and pages are read again and again: it measures the CPU cost of cached reads (and, with more
-- threads, contention on hot pages) rather than cache misses. Pair it with random-points.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

sysbench.cmdline.options.points = {"Number of values in the IN-list of each query", 100}
sysbench.cmdline.options.hot_rows = {"Values of k are drawn from 1..hot_rows", 100}

function init()
   qw.check_positive("points")
   qw.check_positive("hot_rows")
end

function prepare_statements()
   local n = qw.check_positive("points")
   qw.prepare("hot_points", string.format("SELECT id, k, c, pad FROM sbtest%%u WHERE k IN (%s)",
                                          qw.placeholders(n)), qw.ints(n))
end

function event()
   local t = qw.random_table()
   local p = param[t].hot_points
   for i = 1, sysbench.opt.points do
      p[i]:set(sysbench.rand.default(1, sysbench.opt.hot_rows))
   end
   stmt[t].hot_points:execute()
end
