-- ranges: each query reads --range-size consecutive key values with BETWEEN, on the primary key
-- (--index=pk) or on the secondary index k (--index=si). --covered=on selects only columns the index holds;
-- --covered=off also selects c (a primary-key lookup per row for si).
-- Small-server names: range-covered-pk, range-covered-si, range-notcovered-pk, range-notcovered-si.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

sysbench.cmdline.options.index = {"Index the range is on: pk (PRIMARY KEY id) or si (secondary index on k)", "pk"}
sysbench.cmdline.options.covered = {"Select only columns the index holds (on) or also c (off)", true}

function init()
   qw.check_choice("index", {"pk", "si"})
   qw.check_positive("range_size")
end

function prepare_statements()
   local column, columns = qw.select_list(qw.check_choice("index", {"pk", "si"}), sysbench.opt.covered)
   qw.prepare("range", string.format("SELECT %s FROM sbtest%%u WHERE %s BETWEEN ? AND ?", columns, column),
              qw.ints(2))
end

function event()
   local t = qw.random_table()
   local low = qw.random_id()
   param[t].range[1]:set(low)
   param[t].range[2]:set(low + sysbench.opt.range_size - 1)
   stmt[t].range:execute()
end
