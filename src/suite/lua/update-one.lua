-- update-one: every statement updates the same row (id = --row-id), setting the non-indexed column c to a
-- new random value, in autocommit mode. One hot row: it measures the per-update cost of undo, redo and
-- row locking without index maintenance, and with more threads, the wait on one row lock.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

sysbench.cmdline.options.row_id = {"The id of the row every statement updates", 1}

function init()
   qw.check_positive("row_id")
end

function prepare_statements()
   qw.prepare("update_one", "UPDATE sbtest%u SET c = ? WHERE id = ?",
              {{sysbench.sql.type.CHAR, 120}, sysbench.sql.type.INT})
end

function event()
   local t = qw.random_table()
   param[t].update_one[1]:set(get_c_value())
   param[t].update_one[2]:set(sysbench.opt.row_id)
   stmt[t].update_one:execute()
end
