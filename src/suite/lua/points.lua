-- points: each query fetches --points rows through an IN-list, on the primary key (--index=pk) or on
-- the secondary index k (--index=si). With --covered=on the query selects only columns the index holds,
-- so for si no base row is read; with --covered=off it also selects c, which costs a primary-key lookup per
-- row for si (for pk the InnoDB clustered index holds every column, so there it changes the bytes moved).
-- Small-server names: points-covered-pk, points-covered-si, points-notcovered-pk, points-notcovered-si.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

sysbench.cmdline.options.points = {"Number of values in the IN-list of each query", 100}
sysbench.cmdline.options.index = {"Index the IN-list is on: pk (PRIMARY KEY id) or si (secondary index on k)", "pk"}
sysbench.cmdline.options.covered = {"Select only columns the index holds (on) or also c (off)", true}

function init()
   qw.check_choice("index", {"pk", "si"})
   qw.check_positive("points")
end

function prepare_statements()
   local n = qw.check_positive("points")
   local column, columns = qw.select_list(qw.check_choice("index", {"pk", "si"}), sysbench.opt.covered)
   qw.prepare("points", string.format("SELECT %s FROM sbtest%%u WHERE %s IN (%s)",
                                      columns, column, qw.placeholders(n)), qw.ints(n))
end

function event()
   local t = qw.random_table()
   local p = param[t].points
   for i = 1, sysbench.opt.points do
      p[i]:set(qw.random_id())
   end
   stmt[t].points:execute()
end
