package sweep

import (
	"fmt"
	"strings"
	"time"

	"github.com/neardup/neardup/lab/internal/gen"
)

// qualityBases are made-up news stories written for these tests: wire
// prose with figures on many topics, some long enough for the rarewords
// method (200 words and more), a few same-topic pairs, and templated
// earnings reports from which the generator makes hard negatives.
func qualityBases() []gen.Base {
	var out []gen.Base
	for i, s := range storyTexts {
		title, body, _ := strings.Cut(s, "\n")
		dateline, body, _ := strings.Cut(body, "\n")
		out = append(out, gen.Base{
			ID:       fmt.Sprintf("quality:%02d", i),
			Title:    title,
			Dateline: dateline,
			Date:     time.Date(2021, time.Month(1+i%12), 1+i%28, 9+i%8, 15, 0, 0, time.UTC),
			Text:     strings.TrimSpace(strings.ReplaceAll(body, "\n", "\n\n")),
		})
	}
	return out
}

// storyTexts are the stories: the title on the first line, the dateline on
// the second, then one paragraph per line.
var storyTexts = []string{
	`PORT AUTHORITY APPROVES 1.4 BLN DLR CONTAINER TERMINAL
BALTIMORE
The port authority approved a 1.4 billion dollar container terminal on the south side of the harbor on Monday, the largest single investment in its 87-year history.
The terminal will add 1,100 meters of quay and six cranes able to reach across ships 24 containers wide. Construction is to begin in March and the first berth should open in 2025.
Traffic through the port rose 9 percent last year to 1.2 million containers, and the authority expects volumes to double by 2035 as carriers move to larger vessels.
Dock workers' unions welcomed the plan, which they said would create about 2,300 permanent jobs. Residents of the nearby Fairfield district said they worried about truck traffic and asked for a noise barrier.
The state will lend 600 million dollars at 2.1 percent over 30 years; the rest is to be raised through revenue bonds sold in two tranches next spring.
Officials said the environmental review had found no lasting harm to the wetlands north of the site, though dredging would be limited to the winter months to protect spawning fish.`,

	`DROUGHT CUTS WINTER WHEAT FORECAST BY 8 PCT
KANSAS CITY
Dry weather across the southern plains will cut the winter wheat harvest by about 8 percent, a private forecaster said on Tuesday.
The forecaster put the crop at 1.48 billion bushels, down from 1.61 billion a month ago. Farmers in western Kansas reported the worst conditions in a decade.
Wheat for May delivery closed 7 cents higher at 6.85 dollars a bushel in Chicago, its highest close since November.
Rain is forecast for the weekend, but meteorologists said it would come too late for much of the crop.`,

	`KANSAS FARMERS BRACE FOR SMALL HARVEST AFTER DRY WINTER
TOPEKA
Kansas farmers expect one of their smallest wheat crops in years after a dry winter, the state agriculture board said in its weekly report.
The board said 35 percent of the crop was in poor or very poor condition, against 10 percent a year earlier. Topsoil moisture was short in 81 of the state's 105 counties.
A board economist said yields could fall below 30 bushels an acre if the dry spell lasted into April, which would be the lowest since 2014.
Some growers said they were already grazing cattle on fields they no longer expected to harvest.`,

	`CENTRAL BANK HOLDS KEY RATE AT 4.25 PCT, SIGNALS PATIENCE
FRANKFURT
The central bank left its main refinancing rate at 4.25 percent on Thursday and said it would keep it there for as long as needed to bring inflation back to its 2 percent goal.
Consumer prices rose 3.4 percent in the year to October, down from a peak of 10.6 percent a year earlier, but services inflation has proved stubborn at around 4 percent.
The bank's president told reporters that discussing cuts was premature. Markets nonetheless price three quarter-point cuts by the end of next year.
The euro fell 0.4 percent to 1.0720 dollars after the decision, and two-year government bond yields dropped 6 basis points.
Staff projections due in December will for the first time extend to 2026. Economists polled last week expected growth of just 0.6 percent this year.`,

	`OIL FALLS 3 PCT AS PRODUCERS PUMP ABOVE QUOTAS
NEW YORK
Oil prices fell about 3 percent on Friday as traders worried that producers were pumping well above their agreed quotas.
Brent crude for January settled down 2.41 dollars at 77.86 dollars a barrel, while U.S. crude lost 2.28 dollars to 73.01 dollars.
A tanker-tracking survey put the group's output at 28.7 million barrels a day in October, about 400,000 barrels above its ceiling.
"The market simply does not believe the cuts will hold," said a broker at a London trading house, adding that prices could test 70 dollars before year end.
Heating oil and gasoline futures also ended lower, and U.S. inventories rose by 3.6 million barrels in the latest week, the government said.`,

	`CARMAKER RECALLS 412,000 SUVS OVER FAULTY SEAT BELTS
DETROIT
A carmaker is recalling 412,000 sport utility vehicles in the United States and Canada because the front seat belt anchors can detach in a crash, regulators said on Wednesday.
The recall covers models built between June 2019 and August 2021 at two plants in Michigan and Ontario. The company said it knew of 3 minor injuries and no deaths linked to the defect.
Dealers will inspect the anchors and replace them free of charge starting in January. Owners will be notified by mail in the first week of December.
The company took a charge of 190 million dollars for warranty costs in its third quarter, partly because of the problem, and its shares fell 1.2 percent on the news.`,

	`PILOTS AT REGIONAL AIRLINE STRIKE OVER PAY
DUBLIN
Pilots at a regional airline walked off the job on Saturday in a dispute over pay, forcing the cancellation of 86 flights and disrupting travel for about 11,000 passengers.
The pilots' union wants a 12.5 percent rise over two years to make up for pay freezes during the pandemic. The airline has offered 7 percent and a one-off payment of 2,000 euros.
The strike is the third this month. Talks broke down on Thursday after nine hours at the state's workplace relations commission.
The airline's chief executive said the action would cost it about 1.5 million euros a day and warned that two routes to Britain might be closed for the winter.`,

	`STEELMAKERS WELCOME 25 PCT TARIFF ON IMPORTED SLAB
WASHINGTON
Domestic steelmakers welcomed a 25 percent tariff on imported steel slab announced on Monday, saying cheap shipments had cut their prices by a fifth since January.
Imports of slab rose 41 percent in the first nine months of the year to 6.3 million tonnes, according to the trade association, with most of the increase from three countries.
Carmakers and appliance makers, which buy about a third of the country's flat steel, said the duty would raise costs and could cost jobs in manufacturing.
The tariff takes effect on January 1 and will be reviewed after 18 months. Two trading partners said they would challenge it at the World Trade Organization.`,

	`OPPOSITION WINS PROVINCIAL ELECTION WITH 52 PCT OF VOTE
WINNIPEG
The opposition party won the provincial election on Tuesday with 52 percent of the vote and 34 of the 57 seats in the legislature, ending 7 years of government by its rival.
Turnout was 55 percent, up 2 points from the last vote. The outgoing premier held her own seat by fewer than 300 votes and said she would stay on as party leader for now.
The winner campaigned on cutting hospital waiting lists and freezing electricity rates for a year, promises her opponents said would cost 1.1 billion dollars.
She is due to be sworn in with her cabinet within two weeks and has promised to present a budget before the end of March.`,

	`CITY COUNCIL PASSES 3.2 BLN DLR BUDGET WITH POLICE CUT
MINNEAPOLIS
The city council passed a 3.2 billion dollar budget on Thursday after an all-night session, cutting the police budget by 8 million dollars and moving the money to mental health response teams.
The vote was 8 to 5. The mayor, who had asked for a flat police budget, said he would not veto the plan but warned that response times could suffer.
Property taxes will rise 4.9 percent, less than the 6.5 percent first proposed, after the council drew 20 million dollars from reserves.
The budget also funds 320 units of affordable housing and a pilot program of free bus passes for students aged 14 to 18.`,

	`HOSPITAL WAITING LISTS REACH RECORD 7.6 MILLION
LONDON
The number of people waiting for hospital treatment in England rose to a record 7.6 million in August, official figures showed on Thursday.
About 390,000 patients had waited more than a year, and the median wait rose to 14.8 weeks. Ambulance response times for heart attacks and strokes averaged 47 minutes, more than twice the target.
Hospital leaders blamed strikes by junior doctors, which they said had led to the postponement of nearly a million appointments since December.
The health secretary said the government had funded 2.5 million extra appointments and expected the list to start falling next year.
Opposition politicians said the figures showed the service was in its worst state for decades and called for a plan to retain nurses, of whom 40,000 left last year.`,

	`STRIKER JOINS LEAGUE LEADERS IN RECORD 95 MLN EURO DEAL
MADRID
The league leaders signed a 23-year-old striker for 95 million euros on Monday, a record fee for the club, with up to 15 million euros more in bonuses.
The forward scored 31 goals in 44 games last season and has signed a contract until June 2029. He will wear the number 9 shirt.
His former club said it had accepted the offer reluctantly and would spend part of the money on two defenders before the transfer window closes on Thursday.
The coach said the signing would let the team play with two strikers in the Champions League, where it meets last year's finalists in its first group match.`,

	`UNSEEDED QUALIFIER REACHES FIRST GRAND SLAM FINAL
MELBOURNE
A 20-year-old qualifier ranked 112th in the world reached her first grand slam final on Thursday, beating the third seed 6-4, 3-6, 7-5 in two hours and 41 minutes.
She is the first qualifier to reach the final of the tournament in the professional era and will rise to about 30th in the rankings whatever happens on Saturday.
She saved 11 of 14 break points and hit 38 winners, including a backhand down the line on match point that she said she had practiced since she was seven.
Her prize money of at least 1.7 million dollars is more than she had earned in her whole career until this month.`,

	`FESTIVAL GIVES TOP PRIZE TO FILM ABOUT MINERS' STRIKE
VENICE
A film about a miners' strike in the 1980s won the top prize at the festival on Saturday, the first win for a debut director in 16 years.
The jury called the black-and-white drama, shot over 29 days in a disused colliery, "angry, funny and exact". It was made for about 2.3 million dollars.
The best actor prize went to a 71-year-old who plays a union official in the film, and the best actress prize to a teenager in a coming-of-age story set on a Greek island.
Distributors said the winner would open in 14 countries in the spring.`,

	`SMARTPHONE MAKER UNVEILS FOLDING PHONE AT 1,299 DLRS
SAN FRANCISCO
A smartphone maker unveiled its first folding phone on Wednesday, priced at 1,299 dollars, and said it would ship in 30 markets from October 12.
The phone opens to a 7.6-inch screen and weighs 253 grams, about 20 grams less than its nearest rival. The company said the hinge had been tested for 400,000 folds.
Analysts said folding phones made up less than 2 percent of the 1.2 billion smartphones sold last year but were growing at about 25 percent a year.
The company also cut the price of last year's flagship by 100 dollars and said it expected sales to rise in the fourth quarter for the first time in two years.`,

	`SECURITY FLAW IN ROUTER SOFTWARE EXPOSES 1.5 MLN DEVICES
BOSTON
Researchers said on Tuesday that a flaw in software used by several brands of home router let attackers take control of at least 1.5 million devices over the internet.
The bug, in a component that handles remote management, can be exploited by sending a single crafted request. It has been given a severity score of 9.8 out of 10.
The company that writes the software released a fix on Monday, but the researchers said most routers would stay vulnerable because their owners rarely install updates.
They found 640,000 exposed devices in the United States alone and evidence that criminals had begun scanning for them on September 28.`,

	`SPACE PROBE SENDS FIRST IMAGES FROM JUPITER MOON FLYBY
PASADENA
A space probe sent back its first close images of Jupiter's moon Ganymede on Tuesday after passing 1,038 kilometers above its icy surface at 67,000 kilometers an hour.
The pictures show grooves and craters in detail never seen before, with features as small as 1 kilometer across. Scientists hope to learn how thick the moon's ice shell is.
The probe, launched in 2011, is on an extended mission that runs to 2025 and will also fly past Europa and Io.
Its camera was built for public outreach rather than science, and amateurs have processed many of its earlier images.`,

	`MAGNITUDE 6.4 QUAKE KILLS AT LEAST 21 IN MOUNTAIN REGION
ANKARA
An earthquake of magnitude 6.4 struck a mountainous region in the east of the country early on Sunday, killing at least 21 people and injuring more than 300, officials said.
The quake hit at 4:17 a.m. local time at a depth of 10 kilometers. More than 90 aftershocks followed, the strongest of magnitude 5.1.
Rescue teams were searching the rubble of 42 collapsed buildings in three towns. Roads to several villages were blocked by landslides and helicopters were dropping tents and blankets.
The government released 50 million lira in emergency aid and said schools in the region would stay closed for a week.`,

	`FLOODS FORCE 30,000 FROM HOMES AS RIVER BURSTS BANKS
PRAGUE
About 30,000 people were evacuated from their homes on Wednesday after the river burst its banks following four days of rain, the interior ministry said.
Water levels in the old town reached 6.2 meters, the highest since 2013. Two people drowned and one is missing.
Soldiers filled sandbags along the embankment overnight, and the metro closed 11 stations as a precaution. Insurers put early damage at 8 billion crowns.
Forecasters expect the river to peak on Thursday evening before falling slowly over the weekend.`,

	`HOUSE PRICES FALL 1.8 PCT IN OCTOBER, SEVENTH MONTHLY DROP
SYDNEY
House prices fell 1.8 percent in October, the seventh monthly decline in a row, as higher interest rates cut how much buyers could borrow, a property research firm said.
Prices are now 9.5 percent below their peak in April, with the steepest falls in the most expensive suburbs. The median home costs about 1.02 million dollars.
Listings were 14 percent below their five-year average, which the firm said had kept the falls from being larger.
Economists expect prices to fall by as much as 15 percent from the peak before stabilizing in the second half of next year.`,

	`UNEMPLOYMENT RISES TO 4.1 PCT AS HIRING SLOWS
OTTAWA
The unemployment rate rose to 4.1 percent in September from 3.9 percent, as employers added 16,000 jobs, fewer than the 45,000 economists had expected.
Manufacturing shed 22,000 jobs while health care and education added 30,000. Average hourly wages rose 5.0 percent from a year earlier.
The figures strengthened the case for the central bank to stop raising rates at its meeting later this month, economists said.
The currency slipped a quarter of a cent against the U.S. dollar after the release.`,

	`RETAIL SALES UNEXPECTEDLY FALL 0.9 PCT IN JULY
BERLIN
Retail sales fell 0.9 percent in July from June, against expectations of a small rise, as shoppers cut spending on clothes and furniture, the statistics office said.
Compared with a year earlier, sales were down 2.2 percent after adjusting for inflation. Online sales rose 3.1 percent over the year.
A retailers' association said high energy bills had left households with less to spend and warned that 5,000 shops could close this year.
Economists said the figures made a contraction of the economy in the third quarter more likely.`,

	`GOLD HITS SIX-MONTH HIGH ABOVE 2,000 DLRS
SINGAPORE
Gold rose above 2,000 dollars an ounce on Monday for the first time in six months as investors sought safety and bet that U.S. interest rates had peaked.
Spot gold was up 1.1 percent at 2,012.40 dollars by 0930 GMT. Silver gained 2 percent to 23.50 dollars and platinum 0.8 percent.
Holdings of the largest gold-backed exchange-traded fund rose 4.3 tonnes last week, the first increase since August.
Central banks bought 337 tonnes of gold in the third quarter, the second-highest quarterly total on record, an industry group said.`,

	`FROST DAMAGES BRAZIL COFFEE CROP, PRICES JUMP 9 PCT
SAO PAULO
Arabica coffee prices jumped 9 percent on Tuesday after frost damaged plantations in the main growing state, the worst cold snap in 27 years.
An agronomists' group said up to 11 percent of next year's crop could be lost. Brazil grows about a third of the world's coffee.
Arabica for March delivery rose to 2.15 dollars a pound in New York, its highest since 2014. Robusta in London gained 5 percent.
Roasters said retail prices would rise next year if the losses were confirmed. Growers said young trees would need two years to recover.`,

	`SHIPPING LINES AGREE 5.2 BLN DLR MERGER
COPENHAGEN
Two container shipping lines agreed to merge on Thursday in a deal valuing the smaller company at 5.2 billion dollars, creating the world's third-largest carrier.
Shareholders of the smaller line will receive 0.82 new shares for each share they hold. The combined group will operate 410 ships with capacity of 4.9 million containers.
The companies expect annual savings of 700 million dollars within three years, mostly from sharing routes and ports.
The deal needs approval from regulators in Europe, the United States and China and is expected to close in the second half of next year.`,

	`RAILWAY TO SPEND 9 BLN ON FASTER LINE TO THE NORTH
LONDON
The national railway said on Monday it would spend 9 billion pounds over eight years upgrading the main line to the north, cutting the journey to Edinburgh by 25 minutes.
The work will electrify 350 kilometers of track, rebuild 14 stations and add a second pair of tracks on a bottleneck south of York.
Passenger groups welcomed the plan but said weekend closures for the works would disrupt travel until 2031.
The railway expects passenger numbers on the route to rise 40 percent by 2040.`,

	`PASS RATES FALL AS EXAM GRADING RETURNS TO NORMAL
CARDIFF
The share of top grades in school-leaving exams fell to 34.0 percent this year from 40.9 percent, as grading returned to pre-pandemic standards, the exams regulator said.
About 97 percent of entries received a pass. Girls outperformed boys in 22 of 30 subjects.
Head teachers said students had been disadvantaged by disruption to their schooling and called for universities to be flexible with offers.
Applications to university fell 2 percent, the admissions service said, with the largest drop among students from the poorest areas.`,

	`MUSEUM REOPENS AFTER 4-YEAR, 160 MLN DLR RENOVATION
CHICAGO
The natural history museum reopened on Saturday after a four-year renovation costing 160 million dollars, with 2,400 objects on display that had not been shown in decades.
The main hall's glass roof was replaced, and a new wing houses a 12-meter dinosaur skeleton found in Montana in 2017.
About 18,000 visitors came on the first day, when entry was free. Tickets will cost 28 dollars for adults from Monday.
The museum expects 1.3 million visitors a year, against 900,000 before it closed.`,

	`BAND WINS ALBUM OF THE YEAR AT MUSIC AWARDS
LOS ANGELES
A four-piece rock band won album of the year at the music awards on Sunday for a record it made in a converted barn over 19 days.
The album has sold 2.1 million copies and spent 11 weeks at number one. The band's singer thanked "everyone who still buys records".
Record of the year went to a 19-year-old singer-songwriter for a ballad that has been streamed more than 900 million times.
Viewing figures for the ceremony rose 8 percent to 11.2 million.`,

	`CLIMATE TALKS AGREE FUND FOR POORER NATIONS
DUBAI
Nearly 200 countries agreed on Saturday to set up a fund to pay for the damage climate change causes in poorer countries, after talks ran 36 hours past their deadline.
Rich countries pledged 420 million dollars to start the fund, far short of the hundreds of billions a year campaigners say are needed.
The final text calls for a "transition away" from fossil fuels but sets no date. Small island states said it did not go far enough.
Next year's talks will be held in Baku.`,

	`EU CUTS COD QUOTA BY 21 PCT IN BALTIC
BRUSSELS
European Union ministers agreed on Tuesday to cut the catch of cod in the eastern Baltic by 21 percent next year after scientists warned that stocks were near collapse.
Herring quotas were cut by 15 percent and sprat quotas raised by 8 percent. Fishermen's groups said about 1,500 jobs were at risk.
Ministers also extended a ban on cod fishing in spawning grounds from two months to three.
Environmental groups said the cuts were too small and called for a full moratorium.`,

	`WORKERS AT CHILE COPPER MINE START STRIKE
SANTIAGO
Workers at one of the world's largest copper mines began an indefinite strike on Wednesday after rejecting a final wage offer, the union said.
The mine produced 1.1 million tonnes of copper last year, about 5 percent of world supply. The 2,500 strikers want a bonus of 30,000 dollars each.
Copper rose 2.3 percent to 8,710 dollars a tonne on the London Metal Exchange, its biggest daily gain in a month.
The company said it would keep running the mine with contractors and supervisors but that output would fall.`,

	`REGIONAL BANKS AGREE 2.3 BLN DLR ALL-STOCK MERGER
CHARLOTTE
Two regional banks agreed on Monday to merge in an all-stock deal worth 2.3 billion dollars, creating a lender with 78 billion dollars in assets and 410 branches in seven states.
Shareholders of the buyer will own 56 percent of the combined bank. The chief executive of the target will become chairman.
The banks expect to cut costs by 25 percent, mainly by closing about 70 overlapping branches, and to complete the deal in the third quarter.
Shares of the target rose 11 percent and the buyer's fell 4 percent.`,

	`TREASURY SELLS 42 BLN DLRS OF 10-YEAR NOTES AT 4.61 PCT
NEW YORK
The Treasury sold 42 billion dollars of 10-year notes on Wednesday at a yield of 4.61 percent, slightly above where they traded before the auction, a sign of weak demand.
Bids totaled 2.37 times the amount on offer, against an average of 2.5 over the past year. Foreign buyers took 64 percent.
The sale follows a 3-year auction on Tuesday and precedes 24 billion dollars of 30-year bonds on Thursday.
Ten-year yields rose 5 basis points after the auction.`,

	`YEN STRENGTHENS AFTER SUSPECTED INTERVENTION
TOKYO
The yen jumped more than 2 percent against the dollar on Thursday in what traders said was intervention by the authorities, the first since last October.
The dollar fell from 151.90 yen to 147.30 yen within an hour before recovering to 149.10. The finance ministry declined to confirm whether it had acted.
The yen has lost 12 percent this year as interest rates in Japan stayed near zero while they rose elsewhere.
Figures due at the end of the month will show how much, if anything, was spent.`,

	`REGULATOR APPROVES ALZHEIMER'S DRUG FOR EARLY STAGES
SILVER SPRING
The drug regulator approved a treatment for early Alzheimer's disease on Thursday after a trial showed it slowed decline in memory and thinking by 27 percent over 18 months.
The drug, given by infusion every two weeks, will cost 26,500 dollars a year. About 1 in 8 patients in the trial had brain swelling, mostly without symptoms.
Doctors said the benefit was modest but real, and that scans would be needed to find patients who could take it.
The maker expects about 100,000 patients to be treated by the end of next year.`,

	`TELECOM REGULATOR RAISES 3.9 BLN IN SPECTRUM AUCTION
MADRID
The telecom regulator raised 3.9 billion euros in an auction of radio spectrum for fifth-generation mobile networks that ended on Friday after 54 rounds.
Three operators won licences; a fourth bidder dropped out in the last week. Licences run for 20 years and require coverage of 90 percent of the population by 2026.
The sum was well above the 2.2 billion euros the government had budgeted.
Operators said the high price would slow investment in rural networks.`,

	`COURT FINES SOCIAL NETWORK 390 MLN EUROS OVER ADVERTISING DATA
LUXEMBOURG
The European Union's top court on Tuesday upheld fines totaling 390 million euros against a social network for forcing users to accept personalised advertising as a condition of using its service.
The ruling ends a case that began in 2018, when the privacy regulator in Dublin received complaints from two users who said they had been given no real choice. The regulator at first found in the company's favor, but was overruled by a board of national regulators in December 2022.
Judges said a company could not rely on its terms of service as the legal basis for processing personal data for advertising, and that users must be able to refuse such processing without losing access. They also said the company had failed to explain clearly how long it kept the data and with whom it shared it.
The company said it disagreed with the judgment and had already changed its practices in April, when it began asking users in Europe for consent. It said about 40 percent of users had agreed so far, fewer than analysts had feared.
Privacy campaigners said the ruling would affect dozens of other companies that relied on the same argument. One group said it would file complaints against six of them within a month.
Advertising accounts for more than 97 percent of the company's revenue, which reached 134.9 billion dollars last year, and Europe contributes about a quarter of it. Its shares fell 1.7 percent in New York trading.`,

	`WILDFIRE FORCES EVACUATION OF 12,000 NEAR RESORT TOWN
BOISE
A wildfire driven by winds gusting to 80 kilometers an hour forced the evacuation of about 12,000 people from a resort town and surrounding valleys on Sunday, fire officials said.
The fire, which began on Friday afternoon near a campground, had burned 14,600 hectares by Sunday evening and was 5 percent contained. It destroyed at least 37 homes and 60 other buildings, including a ski lodge built in 1938.
More than 900 firefighters, 11 helicopters and four air tankers were working on the blaze. Crews spent the night cutting breaks along the ridge above the town, and officials said they were cautiously hopeful that it would hold if the wind dropped as forecast.
The governor declared a state of emergency, freeing state funds and the National Guard to help. Schools in three districts were closed on Monday and a stretch of the state highway was shut.
Residents who left in a hurry described flames moving faster than a person could run down the hillside. One man said he had 10 minutes to gather his dogs and his father's medicines. Shelters at two high schools took in about 800 people, and the fairgrounds opened for horses and livestock.
The cause is under investigation. The region has had less than half its usual rainfall since March and the summer was the hottest on record, according to the weather service, which warned that conditions would stay critical until at least Wednesday.`,

	`ARCHAEOLOGISTS FIND ROMAN VILLA UNDER SCHOOL PLAYING FIELD
YORK
Archaeologists digging under a school playing field have found the remains of a large Roman villa, including a bath house and mosaic floors, the city council said on Thursday.
The excavation began in May before the school was to build a sports hall. Geophysical surveys had shown walls under the grass, but the team said it was surprised by how well the rooms had survived, some with walls standing more than a meter high.
The villa appears to have been built in the second century and extended at least twice before being abandoned in the late fourth century. Coins found on the site run from the reign of Hadrian to that of Theodosius. One room has an intact floor of red and white tiles in a pattern of interlocking circles, and the heating system beneath it still holds ash from its last fire.
The team has found 4,300 objects so far, among them hairpins, a bronze bracelet, gaming counters and the bones of oysters brought from the coast 60 kilometers away.
The council said the sports hall would be built elsewhere on the site and that the villa would be covered again to protect it, with a digital model made available to the public. About 1,400 people, many of them pupils and their families, visited during two open days last weekend.
A specialist in Roman Britain who was not involved said the find was among the most important in the north of England in 20 years.`,

	`FINANCE MINISTER RAISES DEFENCE SPENDING, CUTS FUEL DUTY
CANBERRA
The finance minister presented a budget on Tuesday that raises defence spending by 11 percent to 52.5 billion dollars, cuts fuel duty by 4 cents a liter for a year and forecasts the first surplus in 15 years.
The surplus of 4.2 billion dollars for the year to June reflects high prices for iron ore and coal, which lifted company tax receipts by about 21 billion dollars more than expected. The minister warned that the budget would return to deficit next year as commodity prices fell and interest costs on the national debt rose.
Spending on health rises 5.5 percent, including 2.2 billion dollars to shorten waiting times for elective surgery and 600 million for rural doctors. Payments to families with children under six rise by 20 dollars a fortnight.
The budget also funds 30,000 places in technical colleges, a new agency to manage waste from nuclear submarines and an increase in the number of permanent migrants to 190,000 a year.
Business groups welcomed the discipline on spending but said the fuel duty cut would mostly help city drivers. Economists said the surplus owed more to luck than to policy and that the budget would add slightly to inflation, now 6.1 percent.
The opposition leader is to reply on Thursday evening. Parliament is expected to pass the main spending bills before the end of June.`,

	`TRANSIT WORKERS STRIKE SHUTS SUBWAY FOR SECOND DAY
TORONTO
The city's subway, streetcars and buses stopped for a second day on Wednesday as 11,000 transit workers stayed on strike, leaving about 1.7 million daily riders to walk, cycle or drive.
Traffic on the main highways into the city was the heaviest officials could remember, with some commuters taking three hours to travel 40 kilometers. Ride-hailing prices rose as much as fourfold during the morning rush, and bicycle shops reported selling out of their cheapest models.
The union is asking for raises of 4 percent a year for three years and limits on the contracting out of maintenance work. The transit commission has offered 2.5 percent a year and says it cannot afford more without cutting service or raising the 3.35 dollar fare.
Talks resumed on Tuesday night with a provincial mediator but ended after four hours without agreement. The mayor said she had asked the province to consider back-to-work legislation if the strike lasted into next week, a move the union said it would challenge in court.
Downtown restaurants and shops said their sales had fallen by half. Hospitals arranged shuttle vans for staff, and the school board allowed late arrivals without penalty.
The last transit strike, in 2008, lasted two days before the legislature ordered workers back. The union's contract expired in March and members voted 92 percent in favor of a strike in June.`,

	`DRUGMAKER RAISES FORECAST AS OBESITY TREATMENT SALES SOAR
INDIANAPOLIS
A drugmaker raised its forecast for the year on Thursday after sales of its obesity and diabetes injections more than doubled in the third quarter, sending its shares up 6 percent to a record.
Revenue rose 37 percent to 9.5 billion dollars, about 600 million more than analysts expected. Sales of the newest injection reached 1.4 billion dollars in its first full quarter on the market, while the older diabetes drug brought in 4.1 billion.
The company now expects revenue of 34.2 billion to 34.7 billion dollars this year, up from an earlier 33.2 billion to 33.7 billion. Its chief financial officer said demand was running ahead of supply and that some doses would remain hard to find until the middle of next year.
The company is spending 11 billion dollars on new factories in North Carolina, Indiana and Germany. The first of them is to begin filling pens in the spring, doubling output of the most popular dose.
Insurers have been slow to cover the drugs for weight loss, which cost about 1,000 dollars a month before discounts. The company said about half of U.S. patients with commercial insurance now had coverage, up from a third in January.
Rivals are racing to bring pills that could be cheaper to make. The company said its own pill had produced weight loss of about 15 percent in a mid-stage trial and would enter final trials this year.`,

	`ACME WIDGETS INC <ACW> 4TH QTR NET
CLEVELAND
Shr 1.20 dlrs vs 1.10 dlrs
Net 12,500,000 vs 11,400,000
Revs 310.5 mln vs 287.2 mln
Year
Shr 4.35 dlrs vs 3.90 dlrs
Net 45.1 mln vs 40.6 mln
Revs 1.21 billion vs 1.10 billion`,

	`BOREALIS MINING CORP <BRM> 1ST QTR LOSS
TORONTO
Shr loss 15 cts vs profit 22 cts
Net loss 3,200,000 vs profit 4,700,000
Revs 88.4 mln vs 101.9 mln
NOTE: 1987 loss includes 2.5 mln dlr writedown of mine assets.`,

	`GRANITE STATE BANCORP <GSB> 2ND QTR NET
CONCORD
Shr 68 cts vs 61 cts
Net 8,420,000 vs 7,530,000
Loans 1.92 billion vs 1.74 billion
Deposits 2.31 billion vs 2.18 billion
Assets 2.86 billion vs 2.66 billion`,

	`PACIFIC TIMBER CO <PTC> 3RD QTR NET
PORTLAND
Shr 2.05 dlrs vs 1.48 dlrs
Net 31.7 mln vs 22.9 mln
Sales 402.6 mln vs 351.0 mln
Nine mths
Shr 5.11 dlrs vs 3.97 dlrs
Net 79.0 mln vs 61.4 mln
Sales 1.13 billion vs 998.3 mln`,
}
