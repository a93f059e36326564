-- update-index-kc: the release studies' update-index variant. Each event runs
--   UPDATE sbtest_kcN SET c = c + 1 WHERE id = ?
-- on a random id in autocommit mode, where sbtest_kcN is a copy of sbtestN with a secondary index on (k, c) and
-- c set to '0' when the copy is made: every update rewrites one row and moves its entry in the (k, c) index.
-- sysbench's oltp_update_index changes k instead; this one keeps k, so the entry moves within one k.
--
-- Why a table of its own: the other tests update c as a column no index holds (update-nonindex) and insert and
-- delete rows with one secondary index (insert, delete-insert); an index on (k, c) in sbtestN would change what
-- they measure.
--
-- Why prepare makes it: copying the rows takes minutes at small-server's 20M rows, longer than a measured run may
-- take. A suite with this test loads with this script (load: script: update-index-kc): its prepare creates and
-- fills sbtestN exactly as every stock oltp script does, then copies each sbtestN into sbtest_kcN. A run on a
-- datadir without sbtest_kcN stops at once with a message that says so.
--
-- Safe to repeat: in a paired session both servers run every test sweep after sweep on one datadir. The table
-- keeps its rows, ids and k values; c only counts up (the faster server's values grow a little faster, a digit
-- more at most), and no other test reads the table.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

local function kc_table(t)
   return string.format("sbtest_kc%u", t)
end

-- Made under another name and renamed when whole, so a prepare killed half way leaves no table a run would use.
local function make_kc_table(con, t)
   local new = string.format("sbtest_kc_new%u", t)
   print(string.format("Copying 'sbtest%u' into '%s' with an index on (k, c) and c = '0'...", t, kc_table(t)))
   con:query("DROP TABLE IF EXISTS " .. new)
   con:query(string.format([[
CREATE TABLE %s(
  id INTEGER NOT NULL,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = %s */]], new, sysbench.opt.mysql_storage_engine))
   con:query(string.format("INSERT INTO %s (id, k, c, pad) SELECT id, k, '0', pad FROM sbtest%u", new, t))
   -- Built after the copy: one sorted build instead of a random index insert per row.
   con:query(string.format("ALTER TABLE %s ADD INDEX kc_%u (k, c)", new, t))
   con:query("DROP TABLE IF EXISTS " .. kc_table(t))
   con:query(string.format("RENAME TABLE %s TO %s", new, kc_table(t)))
end

-- sysbench's prepare (every sbtestN), then the copies; in parallel like the stock one, one thread per table.
local function cmd_prepare_kc()
   cmd_prepare()
   local con = sysbench.sql.driver():connect()
   for t = sysbench.tid % sysbench.opt.threads + 1, sysbench.opt.tables, sysbench.opt.threads do
      make_kc_table(con, t)
   end
   con:disconnect()
end

sysbench.cmdline.commands.prepare = {cmd_prepare_kc, sysbench.cmdline.PARALLEL_COMMAND}

local stock_cleanup = cleanup
function cleanup()
   stock_cleanup()
   local con = sysbench.sql.driver():connect()
   for t = 1, sysbench.opt.tables do
      con:query("DROP TABLE IF EXISTS " .. kc_table(t))
   end
end

local function check_kc_table(t)
   local n = con:query_row(string.format(
      "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '%s'",
      kc_table(t)))
   if tonumber(n) ~= 1 then
      error(string.format("table %s does not exist: update-index-kc runs on the copy its prepare makes; " ..
                          "load the suite with this script (load: script: update-index-kc)", kc_table(t)))
   end
end

function prepare_statements()
   for t = 1, sysbench.opt.tables do
      check_kc_table(t)
   end
   qw.prepare("update_kc", "UPDATE sbtest_kc%u SET c = c + 1 WHERE id = ?", qw.ints(1))
end

function event()
   local t = qw.random_table()
   param[t].update_kc[1]:set(qw.random_id())
   stmt[t].update_kc:execute()
end
