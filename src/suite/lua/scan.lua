-- scan: each query reads every row of one table through the clustered index. The predicate is on pad,
-- which no index holds, so the server must read and test each row; the answer is a single count, so the
-- cost measured is the server's scan, not the client's reading of rows.

-- sysbench puts its own data directory on package.path, not the folder of the script it runs.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
package.path = here .. "lib/?.lua;" .. package.path
local qw = require("qpswatch_common")

function prepare_statements()
   qw.prepare("scan", "SELECT COUNT(*) FROM sbtest%u WHERE pad <> ''", {})
end

function event()
   stmt[qw.random_table()].scan:execute()
end
