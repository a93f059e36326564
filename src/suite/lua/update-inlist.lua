-- update-inlist: each statement increments k (which has a secondary index) in the --points rows whose
-- ids are in an IN-list, in autocommit mode. The server visits the ids in primary-key order, so concurrent
-- statements take their row locks in the same order and wait instead of deadlocking.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

sysbench.cmdline.options.points = {"Number of ids in the IN-list of each statement", 100}

function init()
   qw.check_positive("points")
end

function prepare_statements()
   local n = qw.check_positive("points")
   qw.prepare("update_inlist", string.format("UPDATE sbtest%%u SET k = k + 1 WHERE id IN (%s)",
                                             qw.placeholders(n)), qw.ints(n))
end

function event()
   local t = qw.random_table()
   local p = param[t].update_inlist
   for i = 1, sysbench.opt.points do
      p[i]:set(qw.random_id())
   end
   stmt[t].update_inlist:execute()
end
