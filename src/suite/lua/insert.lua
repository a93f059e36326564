-- insert: each statement appends one row (auto-increment id, random k, c and pad) in autocommit mode, like
-- sysbench's oltp_insert, but into sbtest_insertN, a table of the same layout as sbtestN that this script
-- creates empty on first use, so the rows it adds never reach the tables the other tests read.
--
-- Why: in a paired session both servers run every test of the suite on one datadir, sweep after sweep, and
-- the faster server inserts more rows. Into sbtestN those rows would grow the k index the read tests search
-- (prepare draws k from 1..table-size, and so do inserts), more on one server than on the other.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

function prepare_statements()
   for t = 1, sysbench.opt.tables do
      -- IF NOT EXISTS: every thread of every run asks; the first one creates it.
      con:query(string.format("CREATE TABLE IF NOT EXISTS sbtest_insert%u LIKE sbtest%u", t, t))
   end
   qw.prepare("insert_row", "INSERT INTO sbtest_insert%u (k, c, pad) VALUES (?, ?, ?)",
              {sysbench.sql.type.INT, {sysbench.sql.type.CHAR, 120}, {sysbench.sql.type.CHAR, 60}})
end

function event()
   local t = qw.random_table()
   param[t].insert_row[1]:set(qw.random_id())
   param[t].insert_row[2]:set(get_c_value())
   param[t].insert_row[3]:set(get_pad_value())
   stmt[t].insert_row:execute()
end
