/** The demo fleet's six cities: real coordinates, IANA zones and sales-tax rates (ppm). */

export interface PlaceSeed {
  name: string;
  latitude: number;
  longitude: number;
}

export interface LocationSeed extends PlaceSeed {
  street: string;
  zip: string;
  isAirport: boolean;
  pickup: string;
  dropoff: string;
}

export interface CitySeed {
  name: string;
  state: string;
  stateName: string;
  latitude: number;
  longitude: number;
  timezone: string;
  taxRatePpm: number;
  bufferHours: number | null;
  zip: PlaceSeed;
  airport: PlaceSeed;
  landmarks: PlaceSeed[];
  locations: LocationSeed[];
}

const garage = (level: string, bay: string) =>
  `<p>Park on ${level} and follow the green <strong>Ampere</strong> signs to bay ${bay}. Open the app when you are within 50 feet: your digital key unlocks the car.</p>`;
const garageReturn = (level: string) =>
  `<p>Return to ${level}, plug the car into any free Ampere charger, take your belongings and tap <strong>End Trip</strong>.</p>`;
const airportPickup = (where: string) =>
  `<p>Take the shuttle or walk to ${where}. Ampere cars are in the rows marked with our green signs; your digital key works once you are beside the car.</p>`;
const airportReturn = (where: string) =>
  `<p>Follow signs for rental car return to ${where}, park in an Ampere row and tap <strong>End Trip</strong>.</p>`;

export const CITIES: CitySeed[] = [
  {
    name: 'Nashville',
    state: 'TN',
    stateName: 'Tennessee',
    latitude: 36.1627,
    longitude: -86.7816,
    timezone: 'America/Chicago',
    taxRatePpm: 92_500,
    bufferHours: 4,
    zip: { name: '37203', latitude: 36.1497, longitude: -86.7906 },
    airport: { name: 'Nashville International Airport (BNA)', latitude: 36.1263, longitude: -86.6774 },
    landmarks: [
      { name: 'Lower Broadway', latitude: 36.1612, longitude: -86.7775 },
      { name: 'Vanderbilt University', latitude: 36.1447, longitude: -86.8027 },
      { name: 'Grand Ole Opry', latitude: 36.2068, longitude: -86.6921 },
    ],
    locations: [
      {
        name: 'Nashville Downtown Garage',
        street: '150 3rd Ave S',
        zip: '37201',
        latitude: 36.1593,
        longitude: -86.7759,
        isAirport: false,
        pickup: garage('level P2', 'B'),
        dropoff: garageReturn('level P2'),
      },
      {
        name: 'Nashville Midtown Lot',
        street: '2014 West End Ave',
        zip: '37203',
        latitude: 36.1497,
        longitude: -86.7997,
        isAirport: false,
        pickup: garage('the surface lot', 'A'),
        dropoff: garageReturn('the surface lot'),
      },
      {
        name: 'Nashville Airport (BNA)',
        street: '1 Terminal Dr',
        zip: '37214',
        latitude: 36.1245,
        longitude: -86.6782,
        isAirport: true,
        pickup: airportPickup('Terminal Garage 2, level 1'),
        dropoff: airportReturn('Terminal Garage 2'),
      },
    ],
  },
  {
    name: 'St Louis',
    state: 'MO',
    stateName: 'Missouri',
    latitude: 38.627,
    longitude: -90.1994,
    timezone: 'America/Chicago',
    taxRatePpm: 96_790,
    bufferHours: 4,
    zip: { name: '63101', latitude: 38.6311, longitude: -90.1926 },
    airport: { name: 'St. Louis Lambert International Airport (STL)', latitude: 38.7487, longitude: -90.37 },
    landmarks: [
      { name: 'Gateway Arch', latitude: 38.6247, longitude: -90.1848 },
      { name: 'Forest Park', latitude: 38.6364, longitude: -90.2847 },
      { name: 'Busch Stadium', latitude: 38.6226, longitude: -90.1928 },
    ],
    locations: [
      {
        name: 'St Louis Downtown Garage',
        street: '801 Washington Ave',
        zip: '63101',
        latitude: 38.6305,
        longitude: -90.1936,
        isAirport: false,
        pickup: garage('level 3', 'C'),
        dropoff: garageReturn('level 3'),
      },
      {
        name: 'St Louis Central West End Lot',
        street: '4500 Forest Park Ave',
        zip: '63108',
        latitude: 38.6358,
        longitude: -90.2596,
        isAirport: false,
        pickup: garage('the north lot', 'A'),
        dropoff: garageReturn('the north lot'),
      },
      {
        name: 'St Louis Airport (STL)',
        street: '10701 Lambert International Blvd',
        zip: '63145',
        latitude: 38.7451,
        longitude: -90.3615,
        isAirport: true,
        pickup: airportPickup('the Terminal 1 garage, level 2'),
        dropoff: airportReturn('the Terminal 1 garage'),
      },
    ],
  },
  {
    name: 'Dallas',
    state: 'TX',
    stateName: 'Texas',
    latitude: 32.7767,
    longitude: -96.797,
    timezone: 'America/Chicago',
    taxRatePpm: 82_500,
    bufferHours: 4,
    zip: { name: '75201', latitude: 32.7876, longitude: -96.7994 },
    airport: { name: 'Dallas Fort Worth International Airport (DFW)', latitude: 32.8998, longitude: -97.0403 },
    landmarks: [
      { name: 'Dealey Plaza', latitude: 32.7788, longitude: -96.8084 },
      { name: 'Klyde Warren Park', latitude: 32.7894, longitude: -96.8016 },
      { name: 'AT&T Stadium', latitude: 32.7473, longitude: -97.0945 },
    ],
    locations: [
      {
        name: 'Dallas Uptown Garage',
        street: '2323 Cedar Springs Rd',
        zip: '75201',
        latitude: 32.7949,
        longitude: -96.8047,
        isAirport: false,
        pickup: garage('level 2', 'D'),
        dropoff: garageReturn('level 2'),
      },
      {
        name: 'Dallas Deep Ellum Lot',
        street: '2700 Main St',
        zip: '75226',
        latitude: 32.7837,
        longitude: -96.7846,
        isAirport: false,
        pickup: garage('the corner lot', 'A'),
        dropoff: garageReturn('the corner lot'),
      },
      {
        name: 'Dallas Love Field (DAL)',
        street: '8008 Herb Kelleher Way',
        zip: '75235',
        latitude: 32.8471,
        longitude: -96.8518,
        isAirport: true,
        pickup: airportPickup('the Love Field garage, level 1'),
        dropoff: airportReturn('the Love Field garage'),
      },
    ],
  },
  {
    name: 'Austin',
    state: 'TX',
    stateName: 'Texas',
    latitude: 30.2672,
    longitude: -97.7431,
    timezone: 'America/Chicago',
    taxRatePpm: 82_500,
    bufferHours: 4,
    zip: { name: '78701', latitude: 30.2713, longitude: -97.7426 },
    airport: { name: 'Austin-Bergstrom International Airport (AUS)', latitude: 30.1975, longitude: -97.6664 },
    landmarks: [
      { name: 'Texas State Capitol', latitude: 30.2747, longitude: -97.7404 },
      { name: 'University of Texas at Austin', latitude: 30.2849, longitude: -97.7341 },
      { name: 'Zilker Park', latitude: 30.2669, longitude: -97.7729 },
    ],
    locations: [
      {
        name: 'Austin Downtown Garage',
        street: '500 E 4th St',
        zip: '78701',
        latitude: 30.2664,
        longitude: -97.7394,
        isAirport: false,
        pickup: garage('level P1', 'E'),
        dropoff: garageReturn('level P1'),
      },
      {
        name: 'Austin South Congress Lot',
        street: '1600 S Congress Ave',
        zip: '78704',
        latitude: 30.2489,
        longitude: -97.7497,
        isAirport: false,
        pickup: garage('the back lot', 'A'),
        dropoff: garageReturn('the back lot'),
      },
      {
        name: 'Austin Airport (AUS)',
        street: '3600 Presidential Blvd',
        zip: '78719',
        latitude: 30.2023,
        longitude: -97.6668,
        isAirport: true,
        pickup: airportPickup('the Blue Garage, level 1'),
        dropoff: airportReturn('the Blue Garage'),
      },
    ],
  },
  {
    name: 'Phoenix',
    state: 'AZ',
    stateName: 'Arizona',
    latitude: 33.4484,
    longitude: -112.074,
    timezone: 'America/Phoenix',
    taxRatePpm: 86_000,
    bufferHours: 3,
    zip: { name: '85004', latitude: 33.451, longitude: -112.0687 },
    airport: { name: 'Phoenix Sky Harbor International Airport (PHX)', latitude: 33.4352, longitude: -112.0101 },
    landmarks: [
      { name: 'Chase Field', latitude: 33.4453, longitude: -112.0667 },
      { name: 'Desert Botanical Garden', latitude: 33.4618, longitude: -111.9446 },
      { name: 'Camelback Mountain', latitude: 33.5151, longitude: -111.9619 },
    ],
    locations: [
      {
        name: 'Phoenix Downtown Garage',
        street: '2 E Jefferson St',
        zip: '85004',
        latitude: 33.4466,
        longitude: -112.0737,
        isAirport: false,
        pickup: garage('level 2 (shaded)', 'B'),
        dropoff: garageReturn('level 2'),
      },
      {
        name: 'Phoenix Camelback Lot',
        street: '2502 E Camelback Rd',
        zip: '85016',
        latitude: 33.5097,
        longitude: -112.0262,
        isAirport: false,
        pickup: garage('the covered lot', 'A'),
        dropoff: garageReturn('the covered lot'),
      },
      {
        name: 'Phoenix Airport (PHX)',
        street: '1805 E Sky Harbor Cir S',
        zip: '85034',
        latitude: 33.4343,
        longitude: -112.0116,
        isAirport: true,
        pickup: airportPickup('the Rental Car Center, level 1'),
        dropoff: airportReturn('the Rental Car Center'),
      },
    ],
  },
  {
    name: 'Las Vegas',
    state: 'NV',
    stateName: 'Nevada',
    latitude: 36.1699,
    longitude: -115.1398,
    timezone: 'America/Los_Angeles',
    taxRatePpm: 83_750,
    bufferHours: 4,
    zip: { name: '89109', latitude: 36.126, longitude: -115.154 },
    airport: { name: 'Harry Reid International Airport (LAS)', latitude: 36.084, longitude: -115.1537 },
    landmarks: [
      { name: 'The Las Vegas Strip', latitude: 36.1147, longitude: -115.1728 },
      { name: 'Fremont Street Experience', latitude: 36.171, longitude: -115.144 },
      { name: 'T-Mobile Arena', latitude: 36.1028, longitude: -115.1783 },
    ],
    locations: [
      {
        name: 'Las Vegas Strip Garage',
        street: '3645 S Las Vegas Blvd',
        zip: '89109',
        latitude: 36.1126,
        longitude: -115.1714,
        isAirport: false,
        pickup: garage('level 4', 'F'),
        dropoff: garageReturn('level 4'),
      },
      {
        name: 'Las Vegas Downtown Lot',
        street: '300 S 4th St',
        zip: '89101',
        latitude: 36.1686,
        longitude: -115.1426,
        isAirport: false,
        pickup: garage('the east lot', 'A'),
        dropoff: garageReturn('the east lot'),
      },
      {
        name: 'Las Vegas Airport (LAS)',
        street: '7135 Gilespie St',
        zip: '89119',
        latitude: 36.0567,
        longitude: -115.1578,
        isAirport: true,
        pickup: airportPickup('the Rent-A-Car Center, level 1'),
        dropoff: airportReturn('the Rent-A-Car Center'),
      },
    ],
  },
];

export interface ModelSeed {
  name: string;
  slug: string;
  type: string;
  seating: number;
  drivetrain: string;
  range: number;
  zeroToSixty: number;
  topSpeed: number;
  batteryKwh: number;
  batteryType: string;
  rackRate: number;
  chargingCents: number;
  wmi: string;
  vdsPrefix: string;
}

export const MODELS: ModelSeed[] = [
  {
    name: 'Model 3',
    slug: 'model-3',
    type: 'Sedan',
    seating: 5,
    drivetrain: 'Rear-Wheel Drive',
    range: 272,
    zeroToSixty: 5.8,
    topSpeed: 125,
    batteryKwh: 60,
    batteryType: 'LFP',
    rackRate: 7_900,
    chargingCents: 3_500,
    wmi: '5YJ',
    vdsPrefix: '3E1E',
  },
  {
    name: 'Model 3 Long Range',
    slug: 'model-3-long-range',
    type: 'Sedan',
    seating: 5,
    drivetrain: 'Dual Motor All-Wheel Drive',
    range: 346,
    zeroToSixty: 4.2,
    topSpeed: 125,
    batteryKwh: 79,
    batteryType: 'NCA',
    rackRate: 9_500,
    chargingCents: 4_000,
    wmi: '5YJ',
    vdsPrefix: '3E1F',
  },
  {
    name: 'Model Y',
    slug: 'model-y',
    type: 'SUV',
    seating: 5,
    drivetrain: 'Rear-Wheel Drive',
    range: 320,
    zeroToSixty: 6.5,
    topSpeed: 125,
    batteryKwh: 62,
    batteryType: 'LFP',
    rackRate: 8_900,
    chargingCents: 3_500,
    wmi: '7SA',
    vdsPrefix: 'YGDE',
  },
  {
    name: 'Model Y Long Range',
    slug: 'model-y-long-range',
    type: 'SUV',
    seating: 5,
    drivetrain: 'Dual Motor All-Wheel Drive',
    range: 327,
    zeroToSixty: 4.6,
    topSpeed: 125,
    batteryKwh: 81,
    batteryType: 'NCA',
    rackRate: 10_500,
    chargingCents: 4_000,
    wmi: '7SA',
    vdsPrefix: 'YGDF',
  },
  {
    name: 'Model S',
    slug: 'model-s',
    type: 'Sedan',
    seating: 5,
    drivetrain: 'Dual Motor All-Wheel Drive',
    range: 402,
    zeroToSixty: 3.1,
    topSpeed: 149,
    batteryKwh: 100,
    batteryType: 'NCA',
    rackRate: 14_900,
    chargingCents: 5_000,
    wmi: '5YJ',
    vdsPrefix: 'SA1E',
  },
  {
    name: 'Model X',
    slug: 'model-x',
    type: 'SUV',
    seating: 7,
    drivetrain: 'Dual Motor All-Wheel Drive',
    range: 335,
    zeroToSixty: 3.8,
    topSpeed: 149,
    batteryKwh: 100,
    batteryType: 'NCA',
    rackRate: 16_900,
    chargingCents: 5_000,
    wmi: '7SA',
    vdsPrefix: 'XCAE',
  },
];
