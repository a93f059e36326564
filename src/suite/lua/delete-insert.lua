-- delete-insert: each event deletes one random row by primary key and inserts it back, with new random
-- k, c and pad values, in one transaction (one commit per event).
--
-- Why not sysbench's oltp_delete: in a paired session both servers run every test of the suite on one
-- datadir, sweep after sweep. A plain delete empties the table the other tests read, and empties it faster
-- on the faster server, so the two servers end up answering reads on different data. This test keeps the
-- table's ids and size, and k keeps its distribution (prepare draws k from the same range).
--
-- Two threads may pick one id: the second one's DELETE waits for the first one's commit, which has put the
-- row back, so the INSERT never meets a duplicate key.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

function prepare_statements()
   prepare_begin()
   prepare_commit()
   qw.prepare("delete_row", "DELETE FROM sbtest%u WHERE id = ?", qw.ints(1))
   qw.prepare("insert_row", "INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
              {sysbench.sql.type.INT, sysbench.sql.type.INT,
               {sysbench.sql.type.CHAR, 120}, {sysbench.sql.type.CHAR, 60}})
end

function event()
   local t = qw.random_table()
   local id = qw.random_id()
   param[t].delete_row[1]:set(id)
   param[t].insert_row[1]:set(id)
   param[t].insert_row[2]:set(qw.random_id())
   param[t].insert_row[3]:set(get_c_value())
   param[t].insert_row[4]:set(get_pad_value())
   begin()
   stmt[t].delete_row:execute()
   stmt[t].insert_row:execute()
   commit()
end
