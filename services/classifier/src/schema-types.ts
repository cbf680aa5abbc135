/**
 * schema.org types a page declares about itself (JSON-LD `@type`, microdata `itemtype`) and what they
 * say about its IAB category. A site that marks itself up as a `Dentist` is a dental practice whatever
 * its prose says, so a specific type weighs as much as a title; generic types (Organization, WebSite,
 * LocalBusiness, Article) say nothing about the topic and are absent from the table.
 */
import { jsonLdTypes, microdataItemTypes, parseJsonLdBlocks, type JsonObject } from '@enrich/shared/page';

/** `weight`: 1 for broad hints (Product, Store), 3 for types that name a trade. */
export interface SchemaTypeHint {
  iabId: string;
  weight: number;
}

const STRONG = 3;
const WEAK = 1;

const TABLE: Record<string, [string, number]> = {
  // Food & Drink
  Restaurant: ['IAB8-9', STRONG],
  FoodEstablishment: ['IAB8-9', STRONG],
  FastFoodRestaurant: ['IAB8-9', STRONG],
  CafeOrCoffeeShop: ['IAB8-6', STRONG],
  Bakery: ['IAB8-8', STRONG],
  IceCreamShop: ['IAB8-8', STRONG],
  BarOrPub: ['IAB8-5', STRONG],
  Brewery: ['IAB8-5', STRONG],
  Distillery: ['IAB8-5', STRONG],
  Winery: ['IAB8-18', STRONG],
  Recipe: ['IAB8', STRONG],
  Menu: ['IAB8-9', STRONG],
  MenuItem: ['IAB8-9', WEAK],
  GroceryStore: ['IAB8', STRONG],
  LiquorStore: ['IAB8-5', STRONG],
  // Technology & Computing
  SoftwareApplication: ['IAB19', STRONG],
  WebApplication: ['IAB19', STRONG],
  MobileApplication: ['IAB19', STRONG],
  ComputerStore: ['IAB19', STRONG],
  ElectronicsStore: ['IAB19', STRONG],
  MobilePhoneStore: ['IAB19-6', STRONG],
  SoftwareSourceCode: ['IAB19', STRONG],
  VideoGame: ['IAB9-30', STRONG],
  // Travel
  Hotel: ['IAB20-18', STRONG],
  Motel: ['IAB20-18', STRONG],
  Resort: ['IAB20-18', STRONG],
  Hostel: ['IAB20-18', STRONG],
  LodgingBusiness: ['IAB20-18', STRONG],
  BedAndBreakfast: ['IAB20-5', STRONG],
  Campground: ['IAB20-9', STRONG],
  TravelAgency: ['IAB20', STRONG],
  TouristAttraction: ['IAB20', WEAK],
  TouristDestination: ['IAB20', STRONG],
  Airline: ['IAB20-3', STRONG],
  Airport: ['IAB20-3', STRONG],
  LodgingReservation: ['IAB20-18', STRONG],
  FlightReservation: ['IAB20-3', STRONG],
  AmusementPark: ['IAB20-25', STRONG],
  DaySpa: ['IAB20-24', STRONG],
  HotelRoom: ['IAB20-18', STRONG],
  SkiResort: ['IAB17-35', STRONG],
  // Health & Fitness
  Dentist: ['IAB7-17', STRONG],
  Physician: ['IAB7', STRONG],
  MedicalClinic: ['IAB7', STRONG],
  Hospital: ['IAB7', STRONG],
  MedicalOrganization: ['IAB7', STRONG],
  MedicalBusiness: ['IAB7', STRONG],
  Pharmacy: ['IAB7', STRONG],
  Optician: ['IAB7', STRONG],
  Physiotherapy: ['IAB7-36', STRONG],
  Psychiatric: ['IAB7-37', STRONG],
  ExerciseGym: ['IAB7-1', STRONG],
  HealthClub: ['IAB7-1', STRONG],
  MedicalCondition: ['IAB7', STRONG],
  Drug: ['IAB7', STRONG],
  DietarySupplement: ['IAB7-32', STRONG],
  // Style & Fashion
  BeautySalon: ['IAB18-1', STRONG],
  HairSalon: ['IAB18-1', STRONG],
  NailSalon: ['IAB18-1', STRONG],
  HealthAndBeautyBusiness: ['IAB18-1', STRONG],
  TattooParlor: ['IAB18-2', STRONG],
  ClothingStore: ['IAB18-5', STRONG],
  JewelryStore: ['IAB18-4', STRONG],
  ShoeStore: ['IAB18-6', STRONG],
  // Law, Gov't & Politics
  Attorney: ['IAB11-2', STRONG],
  LegalService: ['IAB11-2', STRONG],
  Notary: ['IAB11-2', STRONG],
  GovernmentOrganization: ['IAB11', STRONG],
  GovernmentOffice: ['IAB11', STRONG],
  CityHall: ['IAB11', STRONG],
  Courthouse: ['IAB11', STRONG],
  PoliceStation: ['IAB11', STRONG],
  FireStation: ['IAB11', STRONG],
  Legislation: ['IAB11', STRONG],
  PoliticalParty: ['IAB11-4', STRONG],
  // Real Estate
  RealEstateAgent: ['IAB21-3', STRONG],
  RealEstateListing: ['IAB21-3', STRONG],
  Apartment: ['IAB21-1', STRONG],
  ApartmentComplex: ['IAB21-1', STRONG],
  SingleFamilyResidence: ['IAB21-3', STRONG],
  House: ['IAB21-3', WEAK],
  Residence: ['IAB21', WEAK],
  Accommodation: ['IAB21', WEAK],
  // Automotive
  AutoDealer: ['IAB2-3', STRONG],
  AutoRepair: ['IAB2-2', STRONG],
  AutoPartsStore: ['IAB2-1', STRONG],
  AutoBodyShop: ['IAB2-2', STRONG],
  AutoWash: ['IAB2', STRONG],
  AutomotiveBusiness: ['IAB2', STRONG],
  MotorcycleDealer: ['IAB2-15', STRONG],
  MotorcycleRepair: ['IAB2-15', STRONG],
  TireShop: ['IAB2-1', STRONG],
  Car: ['IAB2', STRONG],
  Vehicle: ['IAB2', STRONG],
  Motorcycle: ['IAB2-15', STRONG],
  GasStation: ['IAB2', WEAK],
  // Personal Finance
  BankOrCreditUnion: ['IAB13', STRONG],
  FinancialService: ['IAB13', STRONG],
  InsuranceAgency: ['IAB13-6', STRONG],
  LoanOrCredit: ['IAB13-2', STRONG],
  MortgageLoan: ['IAB13-2', STRONG],
  BankAccount: ['IAB13', STRONG],
  FinancialProduct: ['IAB13', STRONG],
  InvestmentOrDeposit: ['IAB13-7', STRONG],
  AutomatedTeller: ['IAB13', WEAK],
  // Education
  EducationalOrganization: ['IAB5', STRONG],
  School: ['IAB5', STRONG],
  CollegeOrUniversity: ['IAB5', STRONG],
  ElementarySchool: ['IAB5', STRONG],
  MiddleSchool: ['IAB5-1', STRONG],
  HighSchool: ['IAB5-1', STRONG],
  Course: ['IAB5', STRONG],
  CourseInstance: ['IAB5', STRONG],
  EducationalOccupationalProgram: ['IAB5', STRONG],
  Preschool: ['IAB6-3', STRONG],
  ChildCare: ['IAB6-3', STRONG],
  // Religion & Spirituality
  Church: ['IAB23-5', STRONG],
  CatholicChurch: ['IAB23-4', STRONG],
  Mosque: ['IAB23-7', STRONG],
  Synagogue: ['IAB23-8', STRONG],
  BuddhistTemple: ['IAB23-3', STRONG],
  HinduTemple: ['IAB23-6', STRONG],
  PlaceOfWorship: ['IAB23', STRONG],
  // Home & Garden
  HomeAndConstructionBusiness: ['IAB10', STRONG],
  GeneralContractor: ['IAB10-9', STRONG],
  RoofingContractor: ['IAB10-9', STRONG],
  Plumber: ['IAB10-5', STRONG],
  Electrician: ['IAB10-5', STRONG],
  HVACBusiness: ['IAB10-5', STRONG],
  HousePainter: ['IAB10-5', STRONG],
  Locksmith: ['IAB10-5', STRONG],
  HardwareStore: ['IAB10-5', STRONG],
  HomeGoodsStore: ['IAB10-7', STRONG],
  FurnitureStore: ['IAB10-7', STRONG],
  GardenStore: ['IAB10-4', STRONG],
  Florist: ['IAB10-4', STRONG],
  MovingCompany: ['IAB10', STRONG],
  HomeImprovement: ['IAB10-9', STRONG],
  // Sports
  SportsTeam: ['IAB17', STRONG],
  SportsClub: ['IAB17', STRONG],
  SportsOrganization: ['IAB17', STRONG],
  StadiumOrArena: ['IAB17', STRONG],
  SportsActivityLocation: ['IAB17', STRONG],
  GolfCourse: ['IAB17-15', STRONG],
  BowlingAlley: ['IAB17', STRONG],
  SportingGoodsStore: ['IAB17', STRONG],
  BikeStore: ['IAB17-3', STRONG],
  SportsEvent: ['IAB17', STRONG],
  PublicSwimmingPool: ['IAB17-38', STRONG],
  TennisComplex: ['IAB17-40', STRONG],
  // Arts & Entertainment
  MusicGroup: ['IAB1-6', STRONG],
  MusicEvent: ['IAB1-6', STRONG],
  MusicRecording: ['IAB1-6', STRONG],
  MusicAlbum: ['IAB1-6', STRONG],
  MusicPlaylist: ['IAB1-6', STRONG],
  MusicVenue: ['IAB1-6', STRONG],
  MusicStore: ['IAB1-6', STRONG],
  Movie: ['IAB1-5', STRONG],
  MovieTheater: ['IAB1-5', STRONG],
  MovieSeries: ['IAB1-5', STRONG],
  TVSeries: ['IAB1-7', STRONG],
  TVEpisode: ['IAB1-7', STRONG],
  TelevisionStation: ['IAB1-7', STRONG],
  Book: ['IAB1-1', STRONG],
  BookSeries: ['IAB1-1', STRONG],
  BookStore: ['IAB1-1', STRONG],
  Library: ['IAB1-1', STRONG],
  Museum: ['IAB1-3', STRONG],
  ArtGallery: ['IAB1-3', STRONG],
  VisualArtwork: ['IAB1-3', STRONG],
  Painting: ['IAB1-3', STRONG],
  PerformingArtsTheater: ['IAB1', STRONG],
  TheaterEvent: ['IAB1', STRONG],
  DanceEvent: ['IAB1', STRONG],
  ComedyClub: ['IAB1-4', STRONG],
  ComedyEvent: ['IAB1-4', STRONG],
  NightClub: ['IAB1', STRONG],
  EntertainmentBusiness: ['IAB1', STRONG],
  PerformingGroup: ['IAB1', STRONG],
  TheaterGroup: ['IAB1', STRONG],
  // News
  NewsArticle: ['IAB12', STRONG],
  NewsMediaOrganization: ['IAB12', STRONG],
  ReportageNewsArticle: ['IAB12', STRONG],
  // Careers
  JobPosting: ['IAB4-5', STRONG],
  EmploymentAgency: ['IAB4-5', STRONG],
  // Pets
  VeterinaryCare: ['IAB16-7', STRONG],
  AnimalShelter: ['IAB16', STRONG],
  PetStore: ['IAB16', STRONG],
  // Shopping: a shop of unknown wares
  Store: ['IAB22', WEAK],
  OnlineStore: ['IAB22', WEAK],
  ShoppingCenter: ['IAB22', STRONG],
  DepartmentStore: ['IAB22', STRONG],
  OutletStore: ['IAB22', STRONG],
  ToyStore: ['IAB22', STRONG],
  OfficeEquipmentStore: ['IAB22', STRONG],
  WholesaleStore: ['IAB22', WEAK],
  Product: ['IAB22', WEAK],
  ProductGroup: ['IAB22', WEAK],
  Offer: ['IAB22', WEAK],
  AggregateOffer: ['IAB22', WEAK],
  // Business
  ProfessionalService: ['IAB3', WEAK],
  AccountingService: ['IAB3', STRONG],
  ConstructionBusiness: ['IAB3-5', STRONG],
};

/** schema.org type (local name, `Restaurant`) -> IAB hint, or undefined when the type says nothing about the topic. */
export function iabHintForSchemaType(type: string): SchemaTypeHint | undefined {
  const local = type.replace(/^.*[/#:]/, '').trim();
  const row = Object.hasOwn(TABLE, local) ? TABLE[local] : undefined;
  return row ? { iabId: row[0], weight: row[1] } : undefined;
}

function collectTypes(node: unknown, out: Set<string>, depth: number): void {
  if (depth > 8 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) collectTypes(n, out, depth + 1);
    return;
  }
  const obj = node as JsonObject;
  for (const v of jsonLdTypes(obj)) if (v.length < 200) out.add(v.replace(/^.*[/#:]/, ''));
  for (const [k, v] of Object.entries(obj)) if (k !== '@type' && k !== '@context') collectTypes(v, out, depth + 1);
}

/** schema.org type names declared by the page, from JSON-LD blocks and microdata `itemtype` attributes. */
export function extractSchemaTypes(jsonLd: readonly string[], html: string): string[] {
  const types = new Set<string>();
  for (const doc of parseJsonLdBlocks(jsonLd)) collectTypes(doc, types, 0);
  for (const t of microdataItemTypes(html)) types.add(t);
  return [...types];
}

/**
 * Types that describe what a page is about (a recipe, a film, a piece of software), as opposed to who
 * publishes it (a restaurant, a newspaper, a law firm). On an article page only these count: the
 * publisher's types say what the publisher does, not what the article is about.
 */
const SUBJECT_TYPES = new Set([
  'Recipe',
  'Menu',
  'SoftwareApplication',
  'WebApplication',
  'MobileApplication',
  'SoftwareSourceCode',
  'VideoGame',
  'MedicalCondition',
  'Drug',
  'DietarySupplement',
  'Car',
  'Vehicle',
  'Motorcycle',
  'Course',
  'CourseInstance',
  'JobPosting',
  'RealEstateListing',
  'SportsEvent',
  'MusicEvent',
  'MusicRecording',
  'MusicAlbum',
  'MusicPlaylist',
  'Movie',
  'MovieSeries',
  'TVSeries',
  'TVEpisode',
  'Book',
  'BookSeries',
  'VisualArtwork',
  'Painting',
  'TheaterEvent',
  'DanceEvent',
  'ComedyEvent',
  'Legislation',
  'TouristDestination',
  'TouristAttraction',
]);

/**
 * IAB hints for a page's declared types, strongest first (ties in the order declared); unknown types
 * are skipped. `article`: keep only the types that describe a subject (SUBJECT_TYPES).
 */
export function schemaTypeHints(types: readonly string[], article = false): SchemaTypeHint[] {
  return types
    .filter((t) => !article || SUBJECT_TYPES.has(t.replace(/^.*[/#:]/, '').trim()))
    .flatMap((t) => iabHintForSchemaType(t) ?? [])
    .sort((a, b) => b.weight - a.weight);
}
