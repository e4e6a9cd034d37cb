package gen

import "time"

// testBases are small made-up stories in the shapes of the real corpora: wire
// prose with figures and American spelling, templated earnings reports, a
// one-paragraph item and a same-topic pair.
func testBases() []Base {
	day := func(d int) time.Time { return time.Date(1987, 3, d, 10, 30, 0, 0, time.UTC) }
	return []Base{
		{ID: "t:harbor", Title: "PORT AUTHORITY PLANS NEW HARBOR TERMINAL", Dateline: "BALTIMORE", Date: day(2), Text: "" +
			"The Port Authority said it will spend 1,250 mln dlrs on a new container terminal at the inner harbor, the largest program in the organization's history.\n\n" +
			"Officials said traffic through the port rose 12 pct last year to 4,300,000 tonnes. They expect the terminal to open in 1990.\n\n" +
			"The U.S. Department of Transportation will analyze the plan before granting a license. A spokesman said the review should take about six months.\n\n" +
			"Shipping lines welcomed the decision. Several carriers had threatened to move their business to rival ports on the East Coast."},
		{ID: "t:grain", Title: "DROUGHT CUTS WINTER WHEAT FORECAST", Dateline: "KANSAS CITY", Date: day(3), Text: "" +
			"Dry weather across the southern plains will cut the winter wheat harvest by about 8 pct, a private forecaster said on Tuesday.\n\n" +
			"The forecaster put the crop at 1,480 mln bushels, down from 1,610 mln bushels a month ago. Farmers in western Kansas reported the worst conditions in a decade.\n\n" +
			"Traders said the estimate was already reflected in futures prices. Wheat for May delivery closed two cents higher at 2.85 dlrs a bushel.\n\n" +
			"Rain is forecast for the weekend, but meteorologists said it would come too late to help much of the crop."},
		{ID: "t:grain2", Title: "KANSAS FARMERS SEE POOR WHEAT CROP", Dateline: "TOPEKA", Date: day(5), Text: "" +
			"Kansas farmers expect one of their smallest wheat crops in years after a dry winter, the state agriculture board said.\n\n" +
			"The board said 35 pct of the crop was in poor condition, against 10 pct a year earlier. Topsoil moisture was short in most counties.\n\n" +
			"A board economist said yields could fall below 30 bushels an acre if the dry spell lasts into April."},
		{ID: "t:bank", Title: "CENTRAL BANK HOLDS RATES STEADY", Dateline: "LONDON", Date: day(4), Text: "" +
			"The central bank left its key lending rate unchanged at 10.5 percent, saying inflation remained a concern despite slower growth.\n\n" +
			"In a statement, the bank said it would continue to favor a stable currency. Analysts had expected no change.\n\n" +
			"Sterling rose slightly after the announcement. Dealers said the market would now focus on trade figures due next week."},
		{ID: "t:acme", Title: "ACME WIDGETS INC <ACW> 4TH QTR NET", Dateline: "CLEVELAND", Date: day(6), Text: "" +
			"Shr 1.20 dlrs vs 1.10 dlrs\n\nNet 12,500,000 vs 11,400,000\n\nRevs 310.5 mln vs 287.2 mln\n\n" +
			"Year\n\nShr 4.35 dlrs vs 3.90 dlrs\n\nNet 45.1 mln vs 40.6 mln\n\nRevs 1.21 billion vs 1.10 billion"},
		{ID: "t:borealis", Title: "BOREALIS MINING CORP <BRM> 1ST QTR LOSS", Dateline: "TORONTO", Date: day(7), Text: "" +
			"Shr loss 15 cts vs profit 22 cts\n\nNet loss 3,200,000 vs profit 4,700,000\n\nRevs 88.4 mln vs 101.9 mln\n\n" +
			"NOTE: 1987 loss includes 2.5 mln dlr writedown of mine assets."},
		{ID: "t:merger", Title: "TEXTILE MAKERS AGREE TO MERGE", Dateline: "CHARLOTTE", Date: day(9), Text: "" +
			"Two textile makers said they agreed to merge in a stock swap valued at about 210 mln dlrs. Shareholders of Carolina Mills Inc will receive 1.4 shares of Piedmont Fabrics Corp for each share they hold. The companies said the combined concern would have annual sales of 900 mln dlrs and would be based in Charlotte. The merger needs the approval of shareholders and regulators."},
		{ID: "t:oil", Title: "OIL PRICES FALL ON OUTPUT WORRIES", Dateline: "NEW YORK", Date: day(10), Text: "" +
			"Oil prices fell sharply on Friday as traders worried that producers were pumping more than their agreed quotas.\n\n" +
			"West Texas Intermediate for April delivery fell 45 cents to 17.80 dlrs a barrel. Brent crude lost 30 cents.\n\n" +
			"One analyst said output from the group had risen to 16.5 mln barrels a day, well above its ceiling of 15.8 mln.\n\n" +
			"\"The market does not believe the agreement will hold,\" said a broker at a large trading house. He said prices could fall toward 16 dlrs.\n\n" +
			"Heating oil and gasoline futures also ended lower."},
	}
}
