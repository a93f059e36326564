export { openMysqlStore, mysqlStoreLabel, type MysqlStoreOptions, type MysqlTls } from './open.js';
export { mysqlLatestVersion as mysqlSchemaVersion } from './schema.js';
