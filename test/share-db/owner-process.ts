// A process that starts a MariaDB and then ends as told (argv[2]): `exit` calls process.exit,
// `wait` waits to be killed. It prints the server's directory and pid first. Run by
// mariadb-server.test.ts to show what is left behind when the process that started a server ends.
import { readFileSync } from 'node:fs';
import { startMariaDb } from '../../dev/mariadb';

const server = await startMariaDb();
const pid = Number.parseInt(readFileSync(`${server.dir.root}/mariadbd.pid`, 'utf8').trim(), 10);
console.log(JSON.stringify({ root: server.dir.root, pid }));
if (process.argv[2] === 'exit') process.exit(0);
setInterval(() => {}, 1000);
