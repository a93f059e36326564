// The sampling room: host and database counters over one measured interval, normalized per operation,
// and the fingerprint of the host they were measured on.
export {
  SamplingError,
  ProcParseError,
  CounterWrapError,
  SamplingIntervalError,
  InvalidRateError,
  DataDeviceError,
  StatusParseError,
} from './errors.js';
export { defaultHostPaths, type HostPaths } from './host-paths.js';
export { parseProcStat, CPU_FIELDS, type ProcStat, type CpuJiffies } from './proc-stat.js';
export { parseDiskstats, DISKSTATS_SECTOR_BYTES, type DiskStats } from './diskstats.js';
export { parseMountinfo, findMount, type MountEntry } from './mountinfo.js';
export { splitDev, formatDev, type DevNumber } from './dev-number.js';
export {
  findDataDevice,
  describeDataDevice,
  wholePhysicalDisks,
  type DataDevice,
  type SingleDataDevice,
  type AllDisksDataDevice,
  type DataDeviceOptions,
} from './data-device.js';
export { takeHostSnapshot, snapshotFromText, type HostSnapshot, type DiskCounters } from './host-snapshot.js';
export { diffHostSnapshots, type HostUsage } from './host-usage.js';
export { perOperation, type PerOpSample } from './per-op.js';
export {
  readGlobalStatus,
  readGlobalVariables,
  parseGlobalStatus,
  GlobalStatusRowsSchema,
  type StatusConnection,
  type GlobalStatus,
  type GlobalStatusRows,
} from './global-status.js';
export {
  statusDelta,
  observerCost,
  STATUS_COUNTERS,
  type ObserverCost,
  type StatusDelta,
  type StatusCounterDelta,
  type StatusCounterName,
} from './status-delta.js';
export { hostFingerprint, type HostFingerprint, type FingerprintOptions } from './fingerprint.js';
export { fingerprintId, hostClassId } from './fingerprint-id.js';
export {
  collectInventory,
  inventoryHostFacts,
  INVENTORY_TIMEOUT_MS,
  type HostInventory,
  type InventoryOptions,
  type InventorySource,
} from './inventory.js';
export { UNKNOWN } from './inventory-facts.js';
export { topologyFromPlaces, type CpuTopology, type CpuPlace } from './cpu-topology.js';
export { parseMeminfo, type Meminfo } from './meminfo.js';
export { parseVmstat, type SwapCounters } from './vmstat.js';
export { parseLoadavg, type LoadAverage } from './loadavg.js';
export { readGovernors } from './governors.js';
export {
  judgeQuietHost,
  defaultQuietHostLimits,
  QuietHostLimitError,
  type QuietHostLimits,
  type QuietHostObservation,
  type QuietHostVerdict,
} from './quiet-host.js';
export {
  observeHost,
  readQuietHost,
  observationFromReadings,
  type ObserveHostOptions,
  type QuietHostReading,
} from './observe-host.js';
export {
  readCpuidle,
  holdIdleStates,
  noIdleStateHold,
  describeIdleHold,
  idleHoldFix,
  idleHoldSetting,
  CPU_DMA_LATENCY,
  IDLE_HOLD_UDEV_RULE,
  type CpuidleFacts,
  type IdleHoldSetting,
  type IdleStateHold,
} from './idle-states.js';
export { processCpuSeconds, processWriteBytes } from './process-cpu.js';
