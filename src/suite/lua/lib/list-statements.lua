-- list-statements: a sysbench script that loads another (QPSWATCH_SCRIPT, a path) and adds the command
-- `statements`, which opens the script's connection as a worker thread would (thread_init) and prints each
-- statement the script prepares or sends on the way, once, as "statement<TAB>sql" on one line. Nothing is
-- measured: qpswatch explains the printed statements on each side of a session, so a plan that differs between
-- the two servers is shown beside the figures (src/session/statement-plans.ts).
local target = os.getenv("QPSWATCH_SCRIPT")
if target == nil or target == "" then
   error("list-statements needs QPSWATCH_SCRIPT: the path of the script whose statements to list")
end

local seen = {}
local function record(sql)
   if not seen[sql] then
      seen[sql] = true
      io.write("statement\t", (sql:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")), "\n")
   end
end

-- An object whose methods run on `real`, except the ones in `own`: the script's connection, seen through it.
local function through(real, own)
   return setmetatable({}, {__index = function(_, key)
      if own[key] ~= nil then return own[key] end
      local value = real[key]
      if type(value) == "function" then
         return function(_, ...) return value(real, ...) end
      end
      return value
   end})
end

local real_driver = sysbench.sql.driver
sysbench.sql.driver = function(...)
   local drv = real_driver(...)
   return through(drv, {connect = function()
      local con = drv:connect()
      return through(con, {
         prepare = function(_, sql) record(sql); return con:prepare(sql) end,
         query = function(_, sql) record(sql); return con:query(sql) end,
      })
   end})
end

dofile(target)
sysbench.cmdline.commands = sysbench.cmdline.commands or {}
sysbench.cmdline.commands.statements = {function()
   thread_init(0)
   io.flush()
end}
