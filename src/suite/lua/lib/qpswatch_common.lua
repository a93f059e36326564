-- Shared helpers for qpswatch's own sysbench 1.0 scripts (src/suite/lua/*.lua).
--
-- The table layout, the prepare/cleanup commands and the common options (--tables, --table-size,
-- --range-size, ...) come from sysbench's own oltp_common.lua, so every qpswatch script runs against the
-- same sbtestN tables as the stock scripts (id INT PRIMARY KEY, k INT with secondary index k_N, c CHAR(120),
-- pad CHAR(60)). oltp_common is found on sysbench's built-in package.path (its data directory).
require("oltp_common")

local qw = {}

-- "?, ?, ?": n placeholders for an IN-list.
function qw.placeholders(n)
   return string.rep("?, ", n - 1) .. "?"
end

-- Fails the run with a message naming the option, its value and the accepted values.
function qw.check_choice(name, allowed)
   local value = sysbench.opt[name]
   for _, a in ipairs(allowed) do
      if value == a then return value end
   end
   error(string.format("--%s=%s is not valid; expected one of: %s", name, tostring(value),
                       table.concat(allowed, ", ")))
end

function qw.check_positive(name)
   local value = sysbench.opt[name]
   if type(value) ~= "number" or value < 1 then
      error(string.format("--%s=%s is not valid; expected a whole number >= 1", name, tostring(value)))
   end
   return value
end

-- Prepares `sql` (which names the table as sbtest%u) on every table as stmt[t][key], with parameters
-- param[t][key][1..n]. `types` lists the parameter types; a {type, length} pair is a string parameter.
-- oltp_common's thread_done() and reconnect hook close and re-prepare whatever is in stmt[t].
function qw.prepare(key, sql, types)
   for t = 1, sysbench.opt.tables do
      stmt[t][key] = con:prepare(string.format(sql, t))
      if #types > 0 then
         param[t][key] = {}
         for p, ty in ipairs(types) do
            if type(ty) == "table" then
               param[t][key][p] = stmt[t][key]:bind_create(ty[1], ty[2])
            else
               param[t][key][p] = stmt[t][key]:bind_create(ty)
            end
         end
         stmt[t][key]:bind_param(unpack(param[t][key]))
      end
   end
end

-- n INT parameter types.
function qw.ints(n)
   local types = {}
   for i = 1, n do types[i] = sysbench.sql.type.INT end
   return types
end

function qw.random_table()
   return sysbench.rand.uniform(1, sysbench.opt.tables)
end

-- An id (or a k value: prepare draws k from the same range) chosen by --rand-type.
function qw.random_id()
   return sysbench.rand.default(1, sysbench.opt.table_size)
end

-- The indexed column and the columns a covering query may select, for --index=pk|si.
-- InnoDB secondary index entries hold the primary key, so (id, k) is covered by k_N.
function qw.index_columns(index)
   if index == "pk" then
      return "id", "id"
   end
   return "k", "id, k"
end

-- A non-covering select list adds c, which no secondary index holds.
function qw.select_list(index, covered)
   local column, covering = qw.index_columns(index)
   if covered then
      return column, covering
   end
   return column, covering .. ", c"
end

return qw
