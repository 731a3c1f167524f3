/** A fresh database for a fault test: on TEST_DATABASE_URL's server, else on a cluster of our own, else none (why). */
import { type Cluster, clusterUnavailable, createCluster } from "./pgCluster.js"
import { testDatabaseUrl } from "./paths.js"
import { createDatabase, dropDatabase, uniqueDatabaseName } from "./sql.js"

export interface FaultDatabase {
  readonly url: string
  readonly label: string
  readonly release: () => Promise<void>
}

/** Undefined when neither can run here: the reason is printed by the caller. */
export const faultDatabaseUnavailable = (): string | undefined => {
  if (testDatabaseUrl !== undefined) return undefined
  const reason = clusterUnavailable()
  return reason === undefined ? undefined : `no TEST_DATABASE_URL, and no cluster of our own (${reason})`
}

export const makeFaultDatabase = async (what: string): Promise<FaultDatabase> => {
  const name = uniqueDatabaseName(what)
  if (testDatabaseUrl !== undefined) {
    const server = testDatabaseUrl
    const url = await createDatabase(server, name)
    return { url, label: `database ${name} on TEST_DATABASE_URL's server`, release: () => dropDatabase(server, name) }
  }
  const cluster: Cluster = await createCluster()
  const url = await createDatabase(cluster.adminUrl, name)
  return { url, label: `database ${name} on a cluster of our own (port ${cluster.port})`, release: () => cluster.destroy() }
}
