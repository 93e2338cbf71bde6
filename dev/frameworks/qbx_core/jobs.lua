-- shared/jobs.lua's shape: grades keyed by integers from 0, lower-case names.
QbxJobs = {
  unemployed = { label = 'Civilian', defaultDuty = true, grades = { [0] = { name = 'freelancer', payment = 10 } } },
  police = {
    label = 'LSPD', type = 'leo', defaultDuty = true,
    grades = {
      [0] = { name = 'cadet', payment = 50 },
      [1] = { name = 'officer', payment = 75 },
      [2] = { name = 'sergeant', payment = 100 },
      [3] = { name = 'lieutenant', payment = 125 },
      [4] = { name = 'chief', payment = 150, isboss = true },
    },
  },
  ambulance = {
    label = 'EMS', type = 'ems', defaultDuty = true,
    grades = {
      [0] = { name = 'probationary', payment = 50 },
      [1] = { name = 'firefighter', payment = 75 },
      [2] = { name = 'lieutenant', payment = 100 },
      [3] = { name = 'captain', payment = 125 },
      [4] = { name = 'chief', payment = 150, isboss = true },
    },
  },
  taxi = { label = 'Taxi', defaultDuty = false, grades = { [0] = { name = 'driver', payment = 30 } } },
}
