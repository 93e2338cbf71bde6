import { startRoster } from './app/start';

// FXServer loads this bundle as a classic script; everything starts from here.
startRoster();
